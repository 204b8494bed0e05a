"""The kept Student-t quantiles (issue 26): ``benger.stats._t_table.T975`` is scipy's ``stdtrit(df, 0.975)`` to
the last bit for each of its df, covers every df that ``--ci auto`` gives a t interval, and ``t_ppf`` answers from
it without importing scipy; any other level or df is still scipy's (a table across df 1 .. 10^6 and both tails)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from scipy import special
from scipy import stats as sps

from benger.stats import MIN_INTERVAL_N, best_method, t_mean_ci
from benger.stats._quantiles import t_ppf
from benger.stats._t_table import T975, T975_P, table_lines


def test_every_kept_quantile_is_scipys_to_the_last_bit() -> None:
    assert T975_P == 0.5 + 0.95 / 2.0  # what a two-sided 95 % interval asks for
    for df, kept in enumerate(T975, start=1):
        assert kept == float(special.stdtrit(df, T975_P)) == float(sps.t.ppf(T975_P, df)), df
        assert t_ppf(T975_P, df) == kept and t_ppf(T975_P, float(df)) == kept


def test_the_table_is_its_own_regeneration() -> None:
    # what ``python -m benger.stats._t_table`` prints reads back to the same tuple
    text = table_lines([float(special.stdtrit(df, T975_P)) for df in range(1, len(T975) + 1)])
    assert tuple(float(v) for v in text.replace(",", " ").split()) == T975


def test_the_table_covers_every_t_interval_of_auto() -> None:
    t_ns = [n for n in range(MIN_INTERVAL_N, 100_000) if best_method(n) == "t"]
    assert t_ns and max(t_ns) - 1 <= len(T975), (max(t_ns), len(T975))


@pytest.mark.parametrize(
    ("df", "expected"),
    [(1, 12.706), (2, 4.303), (5, 2.571), (9, 2.262), (14, 2.145), (29, 2.045), (60, 2.000), (120, 1.980)],
)
def test_printed_t_tables(df: int, expected: float) -> None:
    assert round(t_ppf(0.975, df), 3) == expected  # the 0.975 column of any printed t table


@pytest.mark.parametrize("df", [1, 2, 3, 4, 7, 30, 243, 250, 251, 1000, 10**4, 10**6, 2.5])
@pytest.mark.parametrize("p", [1e-12, 1e-6, 0.001, 0.025, 0.3, 0.5, 0.7, 0.95, 0.975, 0.999, 1 - 1e-6, 1 - 1e-12])
def test_any_level_and_df_is_scipys(p: float, df: float) -> None:
    assert t_ppf(p, df) == float(special.stdtrit(df, p)), (p, df)


def test_a_95_percent_t_interval_imports_no_scipy() -> None:
    code = (
        "import sys\nfrom benger.stats import t_mean_ci, mean_ci\n"
        "t_mean_ci([50.0, 61.0, 70.0]); mean_ci([float(v) for v in range(200)], 'auto')\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'scipy'}))"
    )
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert found.stdout.strip() == "[]", found.stdout


def test_the_interval_uses_the_kept_quantile() -> None:
    values = [50.0, 61.0, 70.0, 44.5]
    found = t_mean_ci(values)
    n = len(values)
    mean = sum(values) / n
    sd = float(sps.tstd(values))
    half = float(sps.t.ppf(0.975, n - 1)) * sd / float(n**0.5)
    assert found.low == pytest.approx(mean - half, rel=1e-15) and found.high == pytest.approx(mean + half, rel=1e-15)
