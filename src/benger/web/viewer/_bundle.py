"""``benger view --bundle DIR``: the viewer's pages as static files that open from ``file://`` with no network.

Layout (every link relative)::

    DIR/index.html                 language choice (links to de/ and en/)
    DIR/static/viewer.css, .js     the only assets (no font, no CDN)
    DIR/<lang>/index.html          leaderboard
    DIR/<lang>/browse/all-N.html   every visible solution, 50 per page; <system>-<corpus>-N.html per system and corpus
    DIR/<lang>/solution/<slug>.html, compare/<slug>.html, validation.html, errors.html

The pages are the served pages' models rendered with :class:`~benger.web.viewer._links.BundleLinks`. The bundle is
read as the principal it is given (by default the local reader: a study that is not ``done`` is left out). It is
written through :func:`benger.outputs.output_folder` as ``view --bundle`` (staged beside DIR, moved into place, its
manifest last), so an interrupted run leaves no half bundle; a rerun replaces the bundle benger wrote before, and a
file of DIR that benger did not write is never overwritten or removed (the rule of every output folder).
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sqlalchemy import select

from benger import __version__
from benger.outputs import output_folder
from benger.store import Store
from benger.store._models import GenerationRow, HumanSolutionRow
from benger.web._policy import Access, Capability, Principal
from benger.web.viewer import _pages
from benger.web.viewer._links import BundleLinks
from benger.web.viewer._names import system_names
from benger.web.viewer._reader import BrowseFilter, ResultsReader
from benger.web.viewer._render import HERE, LANGS, render


def _index(langs: tuple[str, ...]) -> str:
    items = "".join(
        f'<li><a href="{lang}/index.html" lang="{lang}">{"Deutsch" if lang == "de" else "English"}</a></li>'
        for lang in langs
    )
    return (
        '<!doctype html><html lang="de"><head><meta charset="utf-8"><title>BenGER</title>'
        '<link rel="stylesheet" href="static/viewer.css"></head><body><main id="main"><h1>BenGER</h1>'
        f"<ul>{items}</ul></main></body></html>"
    )


def write_bundle(
    store: Store,
    out: Path,
    *,
    principal: Principal | None = None,
    langs: tuple[str, ...] = LANGS,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Write the bundle of ``store`` into ``out``; returns counts and bytes (of the files the bundle holds).

    A bundle written before is replaced (files the old bundle had and this one has not are removed); other files
    are kept. InputError naming ``out`` when it is a file, or naming a file of the bundle's name that benger did
    not write (:mod:`benger.outputs`)."""
    out = Path(out)
    access = Access(store, principal or Principal.local()).require(Capability.RESULTS)
    reader = ResultsReader(access)
    with output_folder(out, "view --bundle") as folder:
        counts = _write(store, access, reader, folder.staging, langs, progress or (lambda _m: None))
    counts["bytes"] = sum(folder.written.values())
    return counts


def _write(
    store: Store, access: Access, reader: ResultsReader, root: Path, langs: tuple[str, ...], say: Callable[[str], None]
) -> dict[str, Any]:
    (root / "static").mkdir()
    for name in ("viewer.css", "viewer.js"):
        shutil.copyfile(HERE / "static" / name, root / "static" / name)
    (root / "index.html").write_text(_index(langs), encoding="utf-8")
    say("leaderboard, validation, error analysis")
    blocks = _pages.validation_blocks(store, reader)
    singles = [
        ("index.html", _pages.leaderboard(store, _pages.judge_statuses(blocks)), "leaderboard", {}),
        ("validation.html", _pages.validation(blocks), "validation", {}),
        ("errors.html", _pages.errors(store), "errors", {"limit": 25}),
    ]
    pages: list[tuple[str, _pages.Page, str, dict[str, Any]]] = list(singles)
    pairs = _pairs(store, reader)
    for system, corpus in [("", ""), *pairs]:
        f = BrowseFilter(system=system or None, corpus=corpus or None)
        while True:
            result = reader.browse(f)
            params = {"system": system, "corpus": corpus} if system else {}
            key = BundleLinks("de", 1).browse(**params, page=str(result.page)).removeprefix("../")
            heading = f"{system} · {corpus}" if system else ""
            extra = {"pairs": pairs, "heading": heading, "params": params}
            pages.append((key, _pages.Page("browse.html", "Lösungen", {"page": result}), "browse", extra))
            if result.page >= result.pages:
                break
            f = BrowseFilter(system=f.system, corpus=f.corpus, page=result.page + 1)
    say(f"{len(pages)} overview pages")
    ids = _solution_ids(store, reader)
    n_solutions = 0
    tasks: dict[tuple[str, str], list[tuple[str, str, str]]] = {}
    for kind, sid in ids:
        rec = reader.solution(kind, sid)
        if rec is None:
            continue
        if rec.task is not None:
            task_key = (rec.task.corpus, rec.task.task_id)
            if task_key not in tasks:
                tasks[task_key] = reader.task_solutions(*task_key)
        others = [o for o in tasks.get((rec.task.corpus, rec.task.task_id), []) if o[1] != sid] if rec.task else []
        name = BundleLinks("de", 1).solution(kind, sid).removeprefix("../")
        pages.append((name, _pages.solution(store, rec, others), "browse", {"subtitle": rec.system}))
        n_solutions += 1
    say(f"{n_solutions} solution pages")
    for (corpus, task_id), solutions in tasks.items():
        record = store.get_task(task_id, corpus)
        name = BundleLinks("de", 1).compare(corpus, task_id).removeprefix("../")
        page = _pages.compare(store, record, solutions, [])
        pages.append((name, page, "browse", {"chosen": ("", ""), "subtitle": task_id}))
    systems = system_names(store)
    for lang in langs:
        for name, page, nav, extra in pages:
            _render_to(root / lang / name, page, nav, lang, name, access, {**extra, "systems": systems})
    return {"languages": list(langs), "solutions": n_solutions, "tasks": len(tasks), "pages": len(pages) * len(langs)}


def _render_to(
    path: Path, page: _pages.Page, nav: str, lang: str, name: str, access: Access, extra: dict[str, Any]
) -> None:
    depth = name.count("/")
    links = BundleLinks(lang, depth)
    extra = dict(extra)
    params = extra.pop("params", {})
    if page.template == "browse.html":
        extra["page_link"] = lambda n: links.browse(**params, page=str(n))
    other = "en" if lang == "de" else "de"
    path.parent.mkdir(parents=True, exist_ok=True)
    html = render(
        page.template,
        lang,
        title=page.title,
        subtitle=extra.pop("subtitle", ""),
        links=links,
        nav=nav,
        other_lang=f"{'../' * depth}../{other}/{name}",
        source=access.store.url,
        version=__version__,
        **page.context,
        **extra,
    )
    path.write_text(html, encoding="utf-8")


def _pairs(store: Store, reader: ResultsReader) -> list[tuple[str, str]]:
    """(system, corpus) of every generation, and (``human``, corpus) where visible human solutions exist."""
    hidden = reader.hidden_solution_ids()
    with store.session() as session:
        gens = session.execute(
            select(GenerationRow.system, GenerationRow.corpus).distinct().order_by(GenerationRow.system)
        ).all()
        humans = session.execute(select(HumanSolutionRow.solution_id, HumanSolutionRow.corpus)).all()
    pairs = [(str(s), str(c)) for s, c in gens]
    pairs += sorted({("human", str(c)) for sid, c in humans if sid not in hidden})
    return pairs


def _solution_ids(store: Store, reader: ResultsReader) -> list[tuple[str, str]]:
    hidden = reader.hidden_solution_ids()
    with store.session() as session:
        gens = session.scalars(select(GenerationRow.generation_id).order_by(GenerationRow.generation_id)).all()
        humans = session.scalars(select(HumanSolutionRow.solution_id).order_by(HumanSolutionRow.solution_id)).all()
    return [("generation", g) for g in gens] + [("human_solution", h) for h in humans if h not in hidden]
