"""benger where evaluation people already work: Hugging Face ``datasets`` folders in and out, BenGER as an
inspect_ai task, inspect logs as recorded systems and judges.

* :mod:`benger.interop.hf`: ``export_hf(store, DIR)`` (parquet per table, one split per corpus, a dataset card)
  and ``import_hf(store, DIR)`` (a benger export, or any datasets folder whose columns map to a corpus);
  needs ``pip install 'benger[hf]'`` (pyarrow; ``datasets`` for ``save_to_disk`` folders).
* :mod:`benger.interop.inspect_tasks`: the inspect_ai tasks ``benger/benchathon``, ``benger/grundprinzipien``,
  ``benger/zjs`` and ``benger/corpus`` with benger's prompts and rubric judge as scorer (``benger[inspect]``).
* :mod:`benger.interop.inspect_log`: an inspect log of such a run as a recorded system and judge in a store.

Nothing here is imported by ``import benger``; each module imports its optional packages when used.
"""
