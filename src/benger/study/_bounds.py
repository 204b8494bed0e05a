"""The bounds of a study's numbers, in one table: every way in (``benger study create --seed/--time-limit``,
``benger study assign --seed``, the admin's and an organisation's study forms, the Python API) checks them here.

* ``seed`` (the arm design and the review assignment): 0 to 2**31 - 1. ``studies.seed`` is an ``Integer``
  column, 32 bits on PostgreSQL; a negative seed was stored as given and 2**63 was an internal error on SQLite.
* ``time_limit_s`` (seconds per task): 1 second to 30 days (a four-week take-home included); 0 and negative
  limits were refused, but 10**12 seconds was stored as a deadline no participant could reach.

A refusal is a :class:`~benger.study.StudyError` naming the field (the web form's, or the CLI option with
``field=``) and the accepted range, raised before anything is written.
"""

from __future__ import annotations

from dataclasses import dataclass

from benger.study._errors import StudyError


@dataclass(frozen=True)
class Bound:
    """The accepted range ``low``..``high`` of the study parameter ``field`` (``label``: its German name)."""

    field: str
    option: str
    label: str
    low: int
    high: int

    def check(self, value: int, *, field: str | None = None) -> int:
        """``value`` when it is within the range; else StudyError naming ``field`` (default: the web field)."""
        if isinstance(value, bool) or not isinstance(value, int) or not self.low <= value <= self.high:
            raise StudyError(
                "{label} muss eine ganze Zahl von {low} bis {high} sein (angegeben: {value}).",
                field=self.field if field is None else field,
                label=self.label,
                low=self.low,
                high=self.high,
                value=value,
            )
        return value


SEED = Bound("seed", "--seed", "Der Seed", 0, 2**31 - 1)
TIME_LIMIT = Bound("time_limit_s", "--time-limit", "Die Bearbeitungszeit in Sekunden", 1, 30 * 24 * 60 * 60)
#: every bound, by its field
BOUNDS: dict[str, Bound] = {b.field: b for b in (SEED, TIME_LIMIT)}
