"""The identifiers of the paper's released judging: the primary judge, its judge config hash and the rubric id.

A module of constants (only ``benger.schema`` beneath it), so that the leaderboard names the paper's reference
rows without loading the rubric files or the release reader (issue 26).
"""

from __future__ import annotations

from benger.schema import stable_hash

#: The rubric id the released primary-judge judgements carry (they predate content hashes).
RELEASED_RUBRIC_ID = "falloesung@1"
#: The judge whose scores the release carries.
PRIMARY_JUDGE = "gpt-5.4-mini"
#: The judge config hash of the released judgements (the release names its primary judge only): the judge
#: identity of the paper's reference rows (:mod:`benger.analysis.leaderboard.build`)
RELEASE_JUDGE_CONFIG_HASH = stable_hash({"judge": PRIMARY_JUDGE})
