"""Run configuration (YAML): corpora, systems, judges, repeats, concurrency, filters, prompts, leaderboard.

``_models``: the configuration's model and its systems; ``_file``: reading (and writing) a config file;
``_spec``: the entry of a ``--model`` named on the command line.
"""

from benger.pipeline._config._file import dump_run_config, load_run_config, parse_run_config
from benger.pipeline._config._models import (
    BudgetCaps,
    Filters,
    LeaderboardOptions,
    RetrySettings,
    RunConfig,
    SystemSpec,
    validated_system,
)
from benger.pipeline._config._spec import model_spec

__all__ = [
    "BudgetCaps",
    "Filters",
    "LeaderboardOptions",
    "RetrySettings",
    "RunConfig",
    "SystemSpec",
    "dump_run_config",
    "load_run_config",
    "model_spec",
    "parse_run_config",
    "validated_system",
]
