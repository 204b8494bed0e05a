"""Built-in metric definitions: every module here has a ``METRICS`` list of ``MetricDef`` (found automatically).

To add a built-in metric, add one module with its ``MetricDef`` here and one test in ``tests/metrics``; see
docs/metrics.md, "Adding a metric".
"""
