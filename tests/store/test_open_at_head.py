"""Opening a store already at the newest migration skips Alembic (issue 26: every ``benger leaderboard`` loaded
Alembic, every migration and the study's tables, ~0.4 CPU-s); a store behind is still upgraded."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine

from benger.store import _engine, open_store


def test_the_head_read_from_the_files_is_alembics_head() -> None:
    config = Config()
    config.set_main_option("script_location", str(_engine.MIGRATIONS_DIR))
    assert [_engine.head_revision()] == ScriptDirectory.from_config(config).get_heads()


@pytest.mark.parametrize(
    ("files", "head"),
    [
        ({"0001_a.py": ("'a'", "None"), "0002_b.py": ("'b'", "'a'")}, "b"),
        ({"0001_a.py": ('"a"', "None"), "0002_b.py": ('"b"', '"a"'), "0003_c.py": ('"c"', '"b"')}, "c"),
        ({"0001_a.py": ("'a'", "None"), "0002_b.py": ("'b'", "'a'"), "0003_c.py": ("'c'", "'a'")}, None),  # 2 heads
        ({"0001_a.py": ("'a'", "None"), "0002_m.py": ("'m'", "('a', 'b')")}, None),  # a merge: ask Alembic
        ({"0001_a.py": ("'a'", "None"), "0002_x.py": (None, "'a'")}, None),  # no revision line
    ],
)
def test_head_revision_of_a_history(
    files: dict[str, tuple[str | None, str]], head: str | None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "versions").mkdir()
    for name, (revision, down) in files.items():
        lines = ['"""a migration"""', "from __future__ import annotations", ""]
        if revision is not None:
            lines.append(f"revision: str = {revision}")
        lines.append(f"down_revision: str | None = {down}")
        (tmp_path / "versions" / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    (tmp_path / "versions" / "__init__.py").write_text("", encoding="utf-8")
    monkeypatch.setattr(_engine, "MIGRATIONS_DIR", tmp_path)
    assert _engine.head_revision() == head


def test_a_store_behind_the_head_is_still_upgraded(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    open_store(db).close()
    engine = create_engine(f"sqlite:///{db}")
    config = Config()
    config.set_main_option("script_location", str(_engine.MIGRATIONS_DIR))
    with engine.begin() as connection:  # one migration back, as an older benger left the store
        config.attributes["connection"] = connection
        command.downgrade(config, "-1")
    previous = ScriptDirectory.from_config(config).get_revision(_engine.head_revision()).down_revision
    assert _engine.stored_revision(engine) == previous
    engine.dispose()
    with open_store(db) as store:
        assert _engine.stored_revision(store.engine) == _engine.head_revision()
        assert store.judge_validations() == []  # the store works at the head


def test_a_new_store_has_no_revision_until_upgraded(tmp_path: Path) -> None:
    engine = create_engine(f"sqlite:///{tmp_path / 'new.db'}")
    assert _engine.stored_revision(engine) is None
    engine.dispose()
