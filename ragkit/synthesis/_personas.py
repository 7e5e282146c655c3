"""Who asks, and how: personas from clusters of documents (or a user file), and the phrasing plan.

Personas come from clustering the documents' summary embeddings (spherical k-means, deterministic start), then one
LLM call names one persona per cluster by a job role. Each is described from its cluster's themes and titles: the
writers see only the name, and the 1.5B model's descriptions were boilerplate ("They need to understand the latest
trends…" for all three of corpora/acme's) that cost a third of the generation's first call (session 41). Without a
judge, when that call fails or when it names a person, the persona is named as a reader of what the corpus's titles
name in common (its company), or of nothing in particular. The runner then gives every scenario a persona (the one
of its document's cluster), a style and a length, rotating through every style × length combination.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from random import Random
from typing import Any

import numpy as np
from pydantic import BaseModel, Field, ValidationError, create_model

from ragkit.errors import DataError, JudgeError, validation_message
from ragkit.kg import KnowledgeGraph, named_entities
from ragkit.llm import Embeddings, Judge, Prompt
from ragkit.synthesis._phrasing import ANY_READER, LENGTHS, STYLES
from ragkit.synthesis._scenarios import scenario_language
from ragkit.text import CJK, normalise_language
from ragkit.types import Persona, Scenario


@dataclass
class PersonaPool:
    """Personas, and which persona asks about which document (empty for user-given personas)."""

    personas: list[Persona]
    by_document: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def pick(self, doc_id: str | None, turn: int) -> Persona | None:
        """The persona of the document's cluster, else the next one in rotation."""
        if not self.personas:
            return None
        if doc_id is not None and doc_id in self.by_document:
            return self.personas[self.by_document[doc_id]]
        return self.personas[turn % len(self.personas)]


def load_personas(path: str | Path) -> list[Persona]:
    """Read a JSON or YAML list of ``{name, description}``; a clear error names the file and the entry."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise DataError(str(path), f"cannot read persona file ({exc.strerror or exc})") from None
    except UnicodeDecodeError as exc:
        raise DataError(str(path), f"not UTF-8 text (byte {exc.start}): a persona file is JSON or YAML") from None
    try:
        if path.suffix.lower() in (".yaml", ".yml"):
            try:
                import yaml
            except ImportError:
                raise DataError(str(path), "YAML persona files need PyYAML (pip install pyyaml); "
                                "or write the file as JSON") from None
            raw: Any = yaml.safe_load(text)
        else:
            raw = json.loads(text)
    except DataError:
        raise
    except Exception as exc:  # json / yaml syntax errors
        raise DataError(str(path), f"not valid {path.suffix.lstrip('.') or 'JSON'}: {exc}") from None
    if isinstance(raw, dict) and isinstance(raw.get("personas"), list):
        raw = raw["personas"]
    if not isinstance(raw, list) or not raw:
        raise DataError(str(path), "expected a non-empty list of {name, description} objects")
    out = []
    for i, item in enumerate(raw):
        try:
            out.append(Persona.model_validate(item))
        except ValidationError as exc:
            raise DataError(f"{path}: persona {i}", validation_message(exc, root="entry")) from None
    return out


# -- clustering -------------------------------------------------------------------------------------


def document_vectors(kg: KnowledgeGraph, embeddings: Embeddings | None) -> tuple[list[str], np.ndarray]:
    """One unit vector per document with chunks: its summary embedding, else the mean of its chunk embeddings,
    else (when ``embeddings`` is given) the embedding of its title and summary or first chunk."""
    ids: list[str] = []
    rows: list[np.ndarray] = []
    todo: list[tuple[int, str]] = []
    for doc in sorted(kg.documents(), key=lambda d: d.path):
        chunks = kg.chunks_of(doc.id)
        if not chunks:
            continue
        vector: np.ndarray | None = None
        if doc.summary_embedding:
            vector = np.asarray(doc.summary_embedding, dtype=np.float32)
        elif any(c.embedding for c in chunks):
            vector = np.mean([np.asarray(c.embedding, dtype=np.float32) for c in chunks if c.embedding], axis=0)
        elif embeddings is not None:
            todo.append((len(rows), f"{doc.title or doc.path}\n{doc.summary or chunks[0].text[:1000]}"))
            vector = np.zeros(1, dtype=np.float32)
        else:
            continue
        ids.append(doc.id)
        rows.append(vector)
    if todo and embeddings is not None:
        for (i, _), v in zip(todo, embeddings.embed([t for _, t in todo]), strict=True):
            rows[i] = v
    if not rows:
        return [], np.zeros((0, 0), dtype=np.float32)
    matrix = np.stack(rows).astype(np.float32)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return ids, matrix / np.where(norms == 0, 1.0, norms)


def cluster(matrix: np.ndarray, k: int, iterations: int = 25) -> list[int]:
    """Spherical k-means with a deterministic farthest-point start; returns a cluster label per row."""
    n = len(matrix)
    k = max(1, min(k, n))
    centre = matrix.mean(axis=0)
    first = int(np.argmax(matrix @ centre))
    seeds = [first]
    while len(seeds) < k:
        closest = np.max(matrix @ matrix[seeds].T, axis=1)
        seeds.append(int(np.argmin(closest)))
    centroids = matrix[seeds].copy()
    labels = np.zeros(n, dtype=int)
    for _ in range(iterations):
        new = np.argmax(matrix @ centroids.T, axis=1)
        if _ and np.array_equal(new, labels):
            break
        labels = new
        for j in range(k):
            members = matrix[labels == j]
            if len(members):
                c = members.sum(axis=0)
                centroids[j] = c / (np.linalg.norm(c) or 1.0)
    used = {old: i for i, old in enumerate(dict.fromkeys(labels.tolist()))}
    return [used[int(x)] for x in labels]


def document_groups(kg: KnowledgeGraph, k: int, embeddings: Embeddings | None = None) -> list[list[str]]:
    """The ids of the graph's documents with chunks, in up to ``k`` clusters of their vectors (``cluster``); empty
    when no document has chunks. One persona is named per group."""
    ids, matrix = document_vectors(kg, embeddings)
    if not ids:
        return []
    labels = cluster(matrix, k)
    groups: list[list[str]] = [[] for _ in range(max(labels) + 1)]
    for doc_id, label in zip(ids, labels, strict=True):
        groups[label].append(doc_id)
    return groups


# -- naming ------------------------------------------------------------------------------------------


class PersonaInput(BaseModel):
    document_groups: list[str]
    personas_needed: int


class PersonaOut(BaseModel):
    name: str = Field(max_length=60)


class PersonaList(BaseModel):
    personas: list[PersonaOut] = Field(max_length=8)


_PERSONA_INSTRUCTION = (
    "Each numbered group lists documents of one collection: titles and themes. For each group, invent one "
    "realistic person who would ask questions about those documents, named by a job role of two to five words. "
    "Give exactly personas_needed personas, one per group, in the same order."
)
_PERSONA_PROMPTS: dict[int, Prompt[PersonaInput, PersonaList]] = {}


def persona_prompt(n: int) -> Prompt[PersonaInput, PersonaList]:
    """The naming prompt for ``n`` groups: its schema holds exactly ``n`` personas, and its reply bound grows with
    them. With one bound for all, a one-document Chinese corpus's reply was cut off: the model wrote persona after
    persona until the bound."""
    if n not in _PERSONA_PROMPTS:
        output = create_model(f"PersonaList{n}", __base__=PersonaList,
                              personas=(list[PersonaOut], Field(min_length=n, max_length=n)))
        _PERSONA_PROMPTS[n] = Prompt(name="generate.personas", instruction=_PERSONA_INSTRUCTION,
                                     input=PersonaInput, output=output, max_tokens=40 + 80 * n)
    return _PERSONA_PROMPTS[n]


def _group_themes(kg: KnowledgeGraph, doc_ids: list[str], top: int = 4) -> list[str]:
    votes: Counter[str] = Counter()
    for doc_id in doc_ids:
        doc = kg.document(doc_id)
        words = doc.themes or [k for c in kg.chunks_of(doc_id) for k in c.keyphrases][:6]
        if not words:
            words = [e.name for c in kg.chunks_of(doc_id)[:3] for e in kg.entities_of(c.id)][:4]
        votes.update(w.strip() for w in words if w.strip())
    return [w for w, _ in votes.most_common(top)]


def _describe_group(kg: KnowledgeGraph, doc_ids: list[str]) -> str:
    titles = [kg.document(d).title or Path(kg.document(d).path).stem for d in doc_ids[:6]]
    themes = _group_themes(kg, doc_ids)
    more = f" (and {len(doc_ids) - 6} more)" if len(doc_ids) > 6 else ""
    return f"documents: {'; '.join(titles)}{more}. themes: {', '.join(themes) or '(none)'}"


def _a_person(name: str, language: str) -> bool:
    """Whether a persona's name is a person's name rather than a role: the Chinese naming call gave its personas
    placeholder names (李四, 王五), which the writer then put into questions as their subject. Asked of Chinese,
    Japanese and Korean names only, whose taggers know people by their surnames; spaCy calls English roles such
    as "Flour Buyer" people."""
    return language in CJK and any(m.type == "person" and m.name.strip() == name
                                   for m in named_entities(name, language))


def common_subject(kg: KnowledgeGraph) -> str | None:
    """The name the corpus's document titles share ("青岚茶业", "한빛커피", "Acme"): the longest entity name of the
    graph found in at least two titles and in half of them (the longest, so that a word of the name, "茶业", found in
    one more title, does not stand for it); None when no name is."""
    titles = [(d.title or "").casefold() for d in kg.documents()]
    joined = "\n".join(titles)  # one scan per name first: a large corpus has many names and many titles
    names = {e.name.strip() for e in kg.entities() if len(e.name.strip()) >= 2}  # one character names nothing
    counts = {n: sum(n.casefold() in t for t in titles) for n in names if n.casefold() in joined}
    shared = [(n, c) for n, c in counts.items() if c >= 2 and 2 * c >= len(titles)]
    return max(shared, key=lambda nc: (len(nc[0]), nc[1]))[0] if shared else None


def fallback_persona(kg: KnowledgeGraph, doc_ids: list[str], subject: str | None = None) -> Persona:
    """A persona described from its cluster's themes and titles, without an LLM, and named as a reader of the
    corpus's ``subject`` (``common_subject``), or as no one in particular (``ANY_READER``) when it has none. The
    writers see only the name, and took a theme in it for their subject: on corpora/ko, whose naming call gives
    people's names, "Reader of 기장 로스팅 공장" had questions on the topics 서울, 정다은 or 커핑 asked about that
    plant instead, the same question again and again. Named after the company, two draws of six samples each on
    corpora/ko and corpora/zh kept 24 of 24 with 15 good by hand, against 20 of 24 with 9 good (session 65)."""
    themes = _group_themes(kg, doc_ids, top=3)
    titles = [kg.document(d).title or Path(kg.document(d).path).stem for d in doc_ids[:2]]
    about = ", ".join(themes) if themes else titles[0]
    return Persona(
        name=f"Reader of {subject}"[:60] if subject else ANY_READER,
        description=f"Needs specific facts about {about}, as written in documents such as {' and '.join(titles)}.",
    )


async def _role_names(kg: KnowledgeGraph, groups: list[list[str]],
                      judge: Judge) -> tuple[dict[int, str], list[tuple[int, str]], list[str]]:
    """The one naming call: the role it gives each group (by group index), the people's names it gave instead of a
    role, and notes."""
    data = PersonaInput(document_groups=[_describe_group(kg, g) for g in groups], personas_needed=len(groups))
    try:
        named = (await judge.structured(persona_prompt(len(groups)), data)).personas
    except JudgeError as exc:
        if exc.fatal:
            raise
        return {}, [], [f"personas described from themes: the LLM call failed ({exc})"]
    roles: dict[int, str] = {}
    people: list[tuple[int, str]] = []
    for i, persona in enumerate(named[: len(groups)]):
        name = persona.name.strip()
        if name and _a_person(name, scenario_language(kg, [c.id for d in groups[i] for c in kg.chunks_of(d)])):
            people.append((i, name))
        elif name:
            roles[i] = name
    return roles, people, []


async def personas_from_graph(
    kg: KnowledgeGraph, *, k: int = 3, judge: Judge | None = None, embeddings: Embeddings | None = None
) -> PersonaPool:
    """Up to ``k`` personas from clusters of the graph's documents (one LLM call in all names them, when a judge is
    given)."""
    groups = document_groups(kg, k, embeddings)
    if not groups:
        return PersonaPool([], notes=["no personas: the graph has no documents with chunks"])
    roles, people, notes = await _role_names(kg, groups, judge) if judge is not None else ({}, [], [])
    # the corpus's subject only when a persona is ragkit's to name: it reads every entity name against the titles
    subject = common_subject(kg) if len(roles) < len(groups) else None
    personas = [fallback_persona(kg, g, subject) for g in groups]
    personas = [p.model_copy(update={"name": roles[i]}) if i in roles else p for i, p in enumerate(personas)]
    notes += [f"persona {i + 1}: the LLM gave a person's name ({name!r}), not a role; named {personas[i].name!r} "
              "instead" for i, name in people]
    by_doc = {d: i for i, g in enumerate(groups) for d in g}
    return PersonaPool(personas, by_document=by_doc, notes=notes)


# -- phrasing ----------------------------------------------------------------------------------------


@dataclass
class Phrasing:
    """Persona, style and length by slot: slot k is the k-th sample of the test set, whichever candidate fills it.

    Consecutive slots walk through all 12 style × length pairs from a seeded start, so the kept samples spread
    over them: a candidate that replaces a dropped one takes the dropped one's slot, and with it its style (when
    styles went by candidate, the replacements of dropped candidates could all land on one style)."""

    pool: PersonaPool
    start: int

    @classmethod
    def seeded(cls, pool: PersonaPool, rng: Random) -> Phrasing:
        return cls(pool, rng.randrange(len(STYLES) * len(LENGTHS)))

    def apply(self, scenario: Scenario, slot: int, kg: KnowledgeGraph,
              taken: Counter[str] | None = None) -> Scenario:
        """``scenario`` phrased for ``slot``. Its style is the one of least use among ``taken`` (the styles of the
        other slots kept or in flight), first in the walk from the slot's turn on. CJK questions get no ``typos``
        style (Latin-letter edits). By the walk alone, a corpus with English and Chinese chunks gave 4 of 8 samples
        one style (session 71): the English slots walked four styles, the Chinese ones three, and the two walks met.
        By least use, 8 samples of one language spread as the walk does (2 each, or 3, 3 and 2), and of two
        languages, none on more than 3."""
        turn = self.start + slot
        allowed = STYLES if normalise_language(scenario.language) not in CJK else tuple(
            s for s in STYLES if s != "typos")
        walk = [STYLES[(turn + i) % len(STYLES)] for i in range(len(STYLES))]
        used = taken or Counter[str]()
        style = min((s for s in walk if s in allowed), key=lambda s: used[s])  # the first of the least used
        length = LENGTHS[turn % len(LENGTHS)]
        doc_id = kg.chunk(scenario.chunk_ids[0]).doc_id if scenario.chunk_ids else None
        persona = self.pool.pick(doc_id, turn)
        return scenario.model_copy(update={"persona": persona, "style": style, "length": length})
