"""Building blocks for scenario generators: the generator protocol, plans and the graph walks they plan with.

The question-writing prompts and the samples they make are in ``ragkit.synthesis._writer``; how questions read
(language, style, length, typos, keywords) is in ``ragkit.synthesis._phrasing``.

A generator is a small class (usually a frozen dataclass) registered with ``@generator``::

    plan(kg, n, rng) -> Plan                       # seeded graph walk, no LLM, never raises
    async generate(scenario, kg, judge) -> TestSample  # may raise SkipScenario(reason)

The runner (``ragkit.synthesis._generate``) sets each scenario's persona, style and length after planning, and fills the
sample's id, generator spec, scenario, persona, style, length and language when the generator leaves them out.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import asdict, dataclass, field, is_dataclass
from random import Random
from typing import Any, Protocol, TypeVar, runtime_checkable

import numpy as np

from ragkit.kg import ChunkNode, KnowledgeGraph
from ragkit.llm import Judge, content_key
from ragkit.registry import GeneratorInfo
from ragkit.text import CJK_CHAR, UNDETERMINED, detect_language, normalise_language, units
from ragkit.types import PluginSpec, Scenario, TestSample

T = TypeVar("T")

VAGUE_TYPES = frozenset({"other", "misc", "unknown", ""})
"""Entity types that say nothing about what the entity is."""


class SkipScenario(Exception):  # noqa: N818  (a control-flow signal, not an error)
    """Raised by ``generate`` when one scenario cannot give a usable sample; the runner counts ``reason``.
    ``candidate`` is what the model wrote, when there is something to show: ``ragkit generate --dropped`` keeps it
    with the reason, as it keeps the candidates the critic drops."""

    def __init__(self, reason: str, detail: str = "", *, candidate: TestSample | None = None) -> None:
        self.reason, self.detail, self.candidate = reason, detail, candidate
        super().__init__(f"{reason}: {detail}" if detail else reason)


@dataclass
class Plan:
    """Scenarios in order of preference, and plain-language notes on why there are fewer than asked."""

    scenarios: list[Scenario] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


@runtime_checkable
class Generator(Protocol):
    """What ``@generator`` registers."""

    def plan(self, kg: KnowledgeGraph, n: int, rng: Random) -> Plan | list[Scenario]: ...

    async def generate(self, scenario: Any, kg: KnowledgeGraph, judge: Judge) -> TestSample: ...


def generator_name(gen: Any) -> str:
    info = getattr(type(gen), "info", None)
    return info.name if isinstance(info, GeneratorInfo) else type(gen).__name__


def generator_spec(gen: Any) -> PluginSpec:
    """The generator's registry name and its dataclass fields (the recorded arguments)."""
    args = asdict(gen) if is_dataclass(gen) and not isinstance(gen, type) else {}
    return PluginSpec(name=generator_name(gen), args=args)


def scenario_language(kg: KnowledgeGraph, chunk_ids: Sequence[str]) -> str:
    """The most common language of the chunks (detected from their text when the graph says ``und``)."""
    votes: Counter[str] = Counter()
    for cid in chunk_ids:
        chunk = kg.chunk(cid)
        lang = normalise_language(chunk.language)
        if lang == UNDETERMINED:
            lang = normalise_language(detect_language(chunk.text))
        votes[lang] += 1
    known = [(lang, n) for lang, n in votes.most_common() if lang != UNDETERMINED]
    return known[0][0] if known else UNDETERMINED


# -- samples ----------------------------------------------------------------------------------------


def sample_id(scenario: Scenario) -> str:
    """A stable id: the generator name and a hash of the scenario."""
    return f"{scenario.generator}-{content_key(scenario.model_dump(mode='json'))[:12]}"


# -- planning helpers -------------------------------------------------------------------------------


def usable_chunks(kg: KnowledgeGraph, min_tokens: int = 8) -> list[ChunkNode]:
    """Chunks with at least ``min_tokens`` words (CJK: characters), in a stable order (document path, then
    position)."""
    paths = {d.id: d.path for d in kg.documents()}
    chunks = [c for c in kg.chunks() if len(units(c.text)) >= min_tokens]
    return sorted(chunks, key=lambda c: (paths.get(c.doc_id, c.doc_id), c.index, c.id))


def spread(items: Sequence[T], key: Callable[[T], Hashable], rng: Random) -> list[T]:
    """Shuffle ``items``, then interleave them round-robin over ``key`` (e.g. the document), so no group piles up.

    Groups take turns in a shuffled order; within a group the shuffled order is kept.
    """
    groups: dict[Hashable, list[T]] = defaultdict(list)
    shuffled = list(items)
    rng.shuffle(shuffled)
    for item in shuffled:
        groups[key(item)].append(item)
    order = list(groups)
    out: list[T] = []
    depth = 0
    while len(out) < len(shuffled):
        out += [groups[k][depth] for k in order if depth < len(groups[k])]
        depth += 1
    return out


def chunk_topics(kg: KnowledgeGraph, chunk: ChunkNode) -> list[str]:
    """Things a question about ``chunk`` can be about: its named entities (people, organisations, products,
    places ...) first, then entities of unknown type, then keyphrases, then its heading."""
    entities = kg.entities_of(chunk.id)
    typed = [e.name for e in entities if e.type not in VAGUE_TYPES]
    vague = [e.name for e in entities if e.type in VAGUE_TYPES]
    if not entities:
        typed = [e.name for e in chunk.entities if e.type not in VAGUE_TYPES]
        vague = [e.name for e in chunk.entities if e.type in VAGUE_TYPES]
    topics = list(dict.fromkeys([*typed, *vague, *chunk.keyphrases]))
    if not topics and chunk.heading_path:
        topics = [chunk.heading_path[-1]]
    return topics


def same_kind(a: str, b: str) -> bool:
    """Whether two names plainly name things of one kind, whatever a tagger typed them: the same head word
    ("Porto Plant", "Sheffield Plant"; CJK: the same last two characters, 龙坞茶园 and 安吉茶园), or the same
    first word before a model code or version ("Heron H6", "Heron H7"; "Conductor 2.3"). A shared brand is not
    enough ("Acme Robotics", the company; "Acme Conductor 2.3", its software), nor a currency before two amounts
    ("GBP 500", "GBP 45": a tagger's names for sums), nor a last number ("Conductor 2.3", "CB-3")."""
    if CJK_CHAR.search(a) and CJK_CHAR.search(b):
        p, q = "".join(a.split()), "".join(b.split())
        return len(p) >= 3 and len(q) >= 3 and p[-2:] == q[-2:]
    x, y = units(a), units(b)
    if len(x) < 2 or len(y) < 2:
        return False
    codes = {_code_kind(a), _code_kind(b)}
    return (x[-1] == y[-1] and not x[-1].isdigit()) or (x[0] == y[0] and len(codes) == 1 and None not in codes)


def _code_kind(name: str) -> str | None:
    """What a name's last word is as a code: "version" ("2.3", "4.0"), "model" ("H6", "K10", "INC-2023-014"), or
    None (a word, or a plain whole number such as "500" or "1,000": a sum or a count). Two names are one kind by their
    first word only with codes of one kind: "Kestrel Firmware 4.0" is no arm like the "Kestrel K10"."""
    last = name.split()[-1] if name.split() else ""
    if not any(c.isdigit() for c in last) or re.fullmatch(r"\d{1,3}(?:,\d{3})+|\d+", last):
        return None
    return "version" if re.fullmatch(r"v?\d+(?:\.\d+)+", last, re.IGNORECASE) else "model"


def entity_documents(kg: KnowledgeGraph) -> dict[str, dict[str, list[str]]]:
    """For every entity, the chunks mentioning it grouped by document (chunk ids in a stable order)."""
    out: dict[str, dict[str, list[str]]] = {}
    for entity in kg.entities():
        by_doc: dict[str, list[str]] = defaultdict(list)
        for chunk in sorted(kg.chunks_mentioning(entity.id), key=lambda c: (c.doc_id, c.index)):
            by_doc[chunk.doc_id].append(chunk.id)
        if by_doc:
            out[entity.id] = dict(by_doc)
    return out


def chunk_vectors(kg: KnowledgeGraph) -> tuple[list[str], np.ndarray | None]:
    """Ids and unit embedding rows of the chunks that have an embedding (None when no chunk has one)."""
    chunks = [c for c in usable_chunks(kg, 1) if c.embedding]
    if not chunks:
        return [], None
    matrix = np.asarray([c.embedding for c in chunks], dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return [c.id for c in chunks], matrix / np.where(norms == 0, 1.0, norms)


def related_chunks(kg: KnowledgeGraph, chunk_id: str, vectors: tuple[list[str], np.ndarray | None],
                   limit: int = 10) -> list[str]:
    """Chunks most related to ``chunk_id``: ``similar`` edges by weight, else embedding cosine, else chunks
    sharing an entity; best first."""
    found = sorted(kg.neighbours(chunk_id, "similar"), key=lambda x: -(x[1] or 0.0))
    out = [c for c, _ in found if c != chunk_id]
    ids, matrix = vectors
    if not out and matrix is not None and chunk_id in ids:
        sims = matrix @ matrix[ids.index(chunk_id)]
        out = [ids[i] for i in np.argsort(-sims) if ids[i] != chunk_id]
    if not out:
        shared = sorted(kg.neighbours(chunk_id, "shares_entity"), key=lambda x: -(x[1] or 0.0))
        out = [c for c, _ in shared if c != chunk_id]
    return list(dict.fromkeys(out))[:limit]
