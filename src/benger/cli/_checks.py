"""Checks of command-line values against what exists, shared by the core commands (``cli._core``)."""

from __future__ import annotations

from pathlib import Path

from benger.errors import InputError


def refuse_unknown(given: list[str] | None, stored: list[str], what: str, option: str, listing: str) -> None:
    """InputError naming every value of ``option`` that is not in ``stored`` (and what is stored)."""
    unknown = [name for name in given or [] if name not in stored]
    if unknown:
        listed = ", ".join(stored) if stored else "none (benger import ...)"
        names = ", ".join(repr(name) for name in unknown)
        raise InputError(f"unknown {what} {names}; {listing}: {listed}", field=option)


def judge_listing(names: list[str]) -> str:
    """Judge names as the store gives them, each of the paper's with its display name (``gpt-5.4-mini
    [GPT-5.4-mini (primary)]``): how every command shows the judges it could take (``judge._released``'s one
    mapping of the release's keys, names and labels)."""
    from benger.judge._released import stored_judge_label

    return ", ".join(f"{name} [{label}]" if (label := stored_judge_label(name)) else name for name in names)


def refuse_unknown_judges(given: list[str], stored: list[str]) -> None:
    """InputError naming every ``--judge`` that judged nothing in the store, and the store's judge names
    (:func:`judge_listing`): ``--judge`` takes the name, not the label nor the release's key (``gpt54mini``).
    Every command's ``--judge`` on a store (leaderboard, errors) refuses through this."""
    unknown = [name for name in given if name not in stored]
    if not unknown:
        return
    listed = judge_listing(stored)
    raise InputError(
        f"unknown judge {', '.join(repr(name) for name in unknown)}; --judge takes a judge name of the store, "
        f"stored judges: {listed or 'none (no judgement is stored: benger judge CONFIG)'}",
        field="--judge",
    )


def check_corpus_name(name: str, file: str | None) -> None:
    """A stored corpus name must be usable later: not empty, no spaces around it, not 'demo' (``--corpus demo``
    and ``corpora: [demo]`` always mean the two built-in demo corpora, so a stored 'demo' could never be run).
    ``file``: the user file whose stem is the name (else the name came from --as)."""
    field = "--as" if file is None else None
    problem = None
    if not name.strip():
        problem = "the corpus name is empty"
    elif name != name.strip():
        problem = f"corpus name {name!r} has spaces around it"
    elif name == "demo":
        problem = "corpus name 'demo' is taken: it always means the built-in demo corpora; import it with --as NAME"
    if problem is not None:
        raise InputError(problem, file=file, field=field)


def require_folder(path: Path, option: str = "--release") -> Path:
    """``path`` when it is a folder; else an InputError that says what is there instead (nothing, or a file)."""
    if not path.is_dir():
        what = "a file, not a folder" if path.exists() else "no such folder"
        raise InputError(f"{option} {path}: {what}")
    return path
