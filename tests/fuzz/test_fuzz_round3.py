"""Generated inputs of each kind of issue 32: a release that contradicts itself, task ids that print as something
else, provider settings out of range, malformed endpoints, bad environment settings, empty store paths and
FIFOs — each refused with one clear message, exit 2, the store unchanged — and Gutachten texts whose result is
stated last, after questions, hypotheses and rejected views.
"""

from __future__ import annotations

import itertools
import json
import os
import unicodedata
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benger.metrics import parse_answer

from ._fuzz import TALLY, check_rejected, dump, invoke, release_copy, store_copy

FALL = {"kind": "falloesung", "bereich": "Zivilrecht", "sachverhalt": "A kauft.", "musterloesung": "Gutachten."}
_FRESH = itertools.count()  # hypothesis seeds `random`: a counter names each example's folder
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


# --- task ids --------------------------------------------------------------------------------------------------
_CONTROL = st.sampled_from(
    ["\n", "\r", "\x1b[31m", "\x00", "\x07", "\u200b", "\u2028", "\u202e", "\x7f", "\x1b]0;x\x07"]
)


@pytest.mark.slow
@SETTINGS
@given(prefix=st.text("abcxyz-_0123456789", min_size=1, max_size=8), bad=_CONTROL, where=st.integers(0, 8))
def test_task_ids_with_control_characters(tmp_path: Path, demo_store: Path, prefix: str, bad: str, where: int) -> None:
    store = store_copy(demo_store, tmp_path / f"s{next(_FRESH)}")
    before = dump(store)
    task_id = "a" + prefix[:where] + bad + prefix[where:] + "z"  # inside the id (the ends are stripped)
    path = store.parent / "cases.jsonl"
    path.write_text(json.dumps({**FALL, "task_id": task_id}) + "\n", encoding="utf-8")
    check_rejected(invoke(["import", str(path), "--db", str(store)]), [path.name], store, before)


@pytest.mark.slow
@SETTINGS
@given(word=st.text("aeiouäöüéèàñçõ", min_size=1, max_size=6).filter(lambda w: unicodedata.normalize("NFD", w) != w))
def test_nfc_nfd_twins(tmp_path: Path, demo_store: Path, word: str) -> None:
    store = store_copy(demo_store, tmp_path / f"s{next(_FRESH)}")
    before = dump(store)
    path = store.parent / "twins.jsonl"
    rows = [{**FALL, "task_id": unicodedata.normalize(form, word)} for form in ("NFC", "NFD")]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    check_rejected(invoke(["import", str(path), "--db", str(store)]), [path.name], store, before)


# --- provider settings and endpoints in a run config -------------------------------------------------------------
@pytest.mark.slow
@SETTINGS
@given(
    provider=st.sampled_from(["openai", "openai-compatible", "google", "anthropic", "local"]),
    excess=st.floats(0.01, 1e6, allow_nan=False),
)
def test_temperature_above_the_providers_range(tmp_path: Path, demo_store: Path, provider: str, excess: float) -> None:
    store = store_copy(demo_store, tmp_path / f"s{next(_FRESH)}")
    before = dump(store)
    top = 1.0 if provider == "anthropic" else 2.0
    config = store.parent / "run.yaml"
    config.write_text(
        "corpora: [demo]\nsystems:\n  - {name: s, provider: "
        f"{provider}, model: m, base_url: 'http://127.0.0.1:9/v1', temperature: {top + excess!r}}}\n",
        encoding="utf-8",
    )
    check_rejected(invoke(["generate", str(config), "--db", str(store), "--quiet"]), ["run.yaml"], store, before)


_BAD_URLS = st.one_of(
    st.sampled_from(["htp:/", "http:/", "http://", "localhost:8080/v1", "ftp://h/v1", "http//h", "://h", "h t t p"]),
    st.text("abc:/.", min_size=1, max_size=12).filter(lambda u: not u.startswith(("http://", "https://"))),
)


@pytest.mark.slow
@SETTINGS
@given(url=_BAD_URLS)
def test_malformed_base_urls(tmp_path: Path, demo_store: Path, url: str) -> None:
    store = store_copy(demo_store, tmp_path / f"s{next(_FRESH)}")
    before = dump(store)
    config = store.parent / "run.yaml"
    config.write_text(
        "corpora: [demo]\nsystems:\n  - {name: s, provider: openai-compatible, model: m, "
        f"base_url: {json.dumps(url)}}}\n",
        encoding="utf-8",
    )
    check_rejected(invoke(["generate", str(config), "--db", str(store), "--quiet"]), ["run.yaml"], store, before)


# --- the environment of a Celery run -----------------------------------------------------------------------------
_ENV = st.sampled_from(
    ["BENGER_VISIBILITY_TIMEOUT", "BENGER_LEASE_SECONDS", "BENGER_REDIS_RECOVERY_SECONDS", "BENGER_WORKER_WAIT_SECONDS"]
)
_BAD_SECONDS = st.one_of(st.integers(-10_000, 0).map(str), st.sampled_from(["abc", "1.5", "1e3", "5s", "∞", "0x10"]))


@pytest.mark.slow
@SETTINGS
@given(name=_ENV, value=_BAD_SECONDS)
def test_bad_celery_settings_write_nothing(
    tmp_path: Path, demo_store: Path, monkeypatch: pytest.MonkeyPatch, name: str, value: str
) -> None:
    store = store_copy(demo_store, tmp_path / f"s{next(_FRESH)}")
    before = dump(store)
    config = store.parent / "run.yaml"
    config.write_text(
        "corpora: [demo]\nsystems:\n  - {name: s, provider: openai-compatible, model: m, "
        "base_url: 'http://127.0.0.1:9/v1'}\nexecutor: celery\n",
        encoding="utf-8",
    )
    with monkeypatch.context() as env:
        env.setenv(name, value)
        check_rejected(invoke(["generate", str(config), "--db", str(store), "--quiet"]), [name], store, before)


# --- store paths and FIFOs ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("db", ["", " ", "\t", "  \n"])
@pytest.mark.parametrize("command", [["corpora"], ["leaderboard"], ["import", "demo"], ["metrics"]])
def test_empty_store_paths(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, db: str, command: list[str]) -> None:
    monkeypatch.chdir(tmp_path)
    check_rejected(invoke([*command, "--db", db]), ["empty store path"])
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs POSIX FIFOs")
@pytest.mark.parametrize("name", ["cases.jsonl", "cases.csv"])
def test_fifo_sources(tmp_path: Path, demo_store: Path, name: str) -> None:
    store = store_copy(demo_store, tmp_path / "s")
    before = dump(store)
    fifo = tmp_path / name
    os.mkfifo(fifo)
    check_rejected(invoke(["import", str(fifo), "--db", str(store)]), [name], store, before)


# --- a release that contradicts itself ---------------------------------------------------------------------------
# (file, record key, field, generated bogus value): every internal reference of the release
_REFERENCES = [
    ("data/processed/benchathon_model_evaluations.json", None, "system"),
    ("data/processed/benchathon_model_evaluations.json", None, "task_id"),
    ("data/processed/benchathon_superseded_evaluations.json", None, "system"),
    ("data/processed/benchathon_automatic_metrics.json", None, "generation_id"),
    ("data/processed/benchathon_human_judge_repeats.json", None, "generation_id"),
    ("data/processed/benchathon_generations_stats.json", None, "model"),
    ("data/processed/benchathon_human_grades.json", None, "solution_id"),
    ("data/processed/benchathon_human_grades.json", None, "task_id"),
    ("data/processed/zjs_model_summary.json", None, "system"),
    ("data/interim/benchathon_human_grading_sample.json", "assignments", "pick_id"),
]


@pytest.mark.slow
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(which=st.sampled_from(_REFERENCES), index=st.integers(0, 10_000), value=st.uuids().map(str))
def test_release_references_to_nothing(
    tmp_path: Path, release_dir: Path, which: tuple[str, str | None, str], index: int, value: str
) -> None:
    rel, key, field = which
    root = release_copy(release_dir, tmp_path / f"r{next(_FRESH)}")
    data = json.loads((release_dir / rel).read_text(encoding="utf-8"))
    rows = data[key] if key else data
    rows[index % len(rows)][field] = value
    (root / rel).unlink()
    (root / rel).write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    db = tmp_path / f"new{next(_FRESH)}.db"
    check_rejected(invoke(["import", f"release:{root}", "--db", str(db)]), [Path(rel).name])
    assert not db.exists(), "a refused release left a store file"


@pytest.mark.slow
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(keep=st.integers(1, 179))
def test_truncated_assignments_csv(tmp_path: Path, release_dir: Path, keep: int) -> None:
    rel = "data/interim/benchathon_human_grading_assignments.csv"
    root = release_copy(release_dir, tmp_path / f"r{next(_FRESH)}")
    lines = (release_dir / rel).read_text(encoding="utf-8").splitlines()
    (root / rel).unlink()
    (root / rel).write_text("\n".join(lines[: keep + 1]) + "\n", encoding="utf-8")
    db = tmp_path / f"new{next(_FRESH)}.db"
    check_rejected(invoke(["import", f"release:{root}", "--db", str(db)]), [Path(rel).name])
    assert not db.exists()


# --- Gutachten texts: the result is stated last --------------------------------------------------------------------
_QUESTION = ["Fraglich ist, ob die Frage zu {v} ist.", "Zu prüfen ist, ob die Frage zu {v} ist.",
             "Ist die Frage zu {v}?", "Es stellt sich die Frage, ob die Frage zu {v} ist."]  # fmt: skip
_HYPOTHESIS = ["Die Frage könnte zu {v} sein.", "Die Frage wäre zu {v}, wenn der Vertrag nichtig wäre.",
               "Die Frage ist zu {v}, wenn A Kaufmann ist."]  # fmt: skip
_VIEW = ["Man könnte meinen, die Frage sei zu {v}. Das überzeugt nicht.",
         "Nach einer Mindermeinung ist die Frage zu {v}. Dem ist nicht zu folgen.",
         "B meint, die Frage sei zu {v}.", "Teilweise wird vertreten, die Frage sei zu {v}."]  # fmt: skip
_FILLER = ["Der Vertrag wurde am 3. Mai geschlossen.", "A handelte vorsätzlich.", "§ 433 Abs. 2 BGB ist einschlägig."]
_FINAL = {"Ja": ["Ja.", "Ergebnis: Ja.", "Die Frage ist daher zu bejahen.", "Im Ergebnis: ja", "Jawohl.",
                 "Die Antwort lautet nicht Nein, sondern Ja."],
          "Nein": ["Nein.", "Ergebnis: Nein.", "Die Frage ist somit zu verneinen.", "Im Ergebnis: nein",
                   "Klares Nein.", "Die Frage ist nicht zu bejahen."]}  # fmt: skip
_VERB = {"Ja": "verneinen", "Nein": "bejahen"}  # the non-decisions point the other way


@settings(max_examples=200, deadline=None)
@given(
    gold=st.sampled_from(["Ja", "Nein"]),
    parts=st.lists(st.sampled_from(["q", "h", "v", "f"]), min_size=1, max_size=6),
    picks=st.lists(st.integers(0, 100), min_size=7, max_size=7),
)
def test_the_last_stated_decision_decides(gold: str, parts: list[str], picks: list[int]) -> None:
    pools = {"q": _QUESTION, "h": _HYPOTHESIS, "v": _VIEW, "f": _FILLER}
    sentences = [pools[p][picks[i] % len(pools[p])].format(v=_VERB[gold]) for i, p in enumerate(parts)]
    text = " ".join([*sentences, _FINAL[gold][picks[6] % len(_FINAL[gold])]])
    TALLY["gutachten texts"] += 1
    assert parse_answer(text) == gold, text
