"""The real embedded runtime on the small smollm2 model (to stay quick): saved prompt states (a prompt that shares
its start with an earlier call that is no longer the live one is evaluated from where they differ, and the reply
is the one a model without saved states gives), one load per model, and a reply caught in a loop stopped early."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragkit.llm._local import LOOP_CHARS, LocalModel, model_path

pytestmark = pytest.mark.live

INSTRUCTION = ("You read a passage about a company and answer questions about it in one short sentence. "
               "Use only the passage. ") * 6
PASSAGE = ("Acme Robotics was founded in Manchester in 2011 by Helen Okafor and Daniel Reyes. It builds the "
           "Kestrel K10 arm, which has a reach of 1,300 mm and a payload of 10 kg. ") * 3


def _model(tmp_path: Path, mb: int) -> LocalModel:
    try:
        path = model_path("smollm2-135m", tmp_path)
    except Exception as exc:  # the weights package is part of ragkit[local]
        pytest.skip(f"smollm2 weights unavailable: {exc}")
    return LocalModel(path, threads=0, context_size=2048, prompt_cache_mb=mb)


def _ask(model: LocalModel, system: str, user: str) -> tuple[str, int, int]:
    out = model.chat([{"role": "system", "content": system}, {"role": "user", "content": user}], max_tokens=24)
    usage = out["usage"]
    return out["choices"][0]["message"]["content"], usage["prompt_tokens"], usage["prompt_tokens_details"][
        "cached_tokens"]


def test_a_prompt_resumes_from_a_saved_state_and_answers_the_same(tmp_path: Path) -> None:
    kept = _model(tmp_path, 64)
    _ask(kept, INSTRUCTION, PASSAGE + "\nWho founded Acme?")
    _ask(kept, "Translate the text into French.", "The weather is fine today.")  # the live state moves away
    text, prompt, reused = _ask(kept, INSTRUCTION, PASSAGE + "\nWhat is the reach of the Kestrel K10?")
    assert reused > 0.8 * (prompt - 20), (reused, prompt)  # all but the question came from the saved state
    assert kept.states.states, "the states were kept"

    plain = _model(tmp_path, 0)
    _ask(plain, "Translate the text into French.", "The weather is fine today.")
    again, _, reused_plain = _ask(plain, INSTRUCTION, PASSAGE + "\nWhat is the reach of the Kestrel K10?")
    assert reused_plain < 20  # only the chat template's first tokens are shared with the live state
    assert again == text
    assert not plain.states.states


def test_a_model_is_loaded_once_and_settings_it_was_not_loaded_with_are_named(tmp_path: Path, monkeypatch,
                                                                             caplog) -> None:
    _model(tmp_path, 0)  # skips when the weights are not installed
    monkeypatch.setattr(LocalModel, "_instances", {})
    monkeypatch.setattr(LocalModel, "_warned", set())
    first = LocalModel.get("smollm2-135m", model_dir=tmp_path, context_size=2048)
    assert LocalModel.get("smollm2-135m", model_dir=tmp_path, context_size=2048) is first
    assert not caplog.records
    with caplog.at_level("WARNING", logger="ragkit"):
        again = LocalModel.get("smollm2-135m", model_dir=tmp_path, context_size=4096)
    assert again is first and first.llama.n_ctx() == 2048
    assert "context_size=2048; context_size=4096 apply after a restart" in caplog.text
    caplog.clear()
    with caplog.at_level("WARNING", logger="ragkit"):  # a run asks on every call: said once, not on every call
        LocalModel.get("smollm2-135m", model_dir=tmp_path, context_size=4096)
    assert not caplog.records


def test_a_reply_caught_in_a_loop_is_stopped_long_before_its_token_limit(tmp_path: Path) -> None:
    """smollm2 continues "la la la …" for as long as it may; the runtime stops it once the loop fills LOOP_CHARS,
    and says the reply was cut (so that a structured call asks again at once)."""
    model = _model(tmp_path, 0)
    out = model.chat([{"role": "system", "content": "Continue the text exactly as it goes, with nothing else."},
                      {"role": "user", "content": "la " * 24}], max_tokens=600)
    choice = out["choices"][0]
    assert choice["finish_reason"] == "length"
    assert out["usage"]["completion_tokens"] < 150, out["usage"]  # 600 without the stop
    assert LOOP_CHARS <= len(choice["message"]["content"]) < 2 * LOOP_CHARS


SCHEMA = {"type": "object", "properties": {
    "answer": {"type": "string", "maxLength": 80},
    "year": {"type": "integer"},
    "labels": {"type": "array", "items": {"enum": ["supported", "contradicted", "not_mentioned"]}, "maxItems": 3}},
    "required": ["answer", "year", "labels"]}


def test_greedy_decoding_under_a_grammar_asks_the_grammar_last_and_replies_the_same(tmp_path: Path,
                                                                                     monkeypatch) -> None:
    """The grammar tests only the token the model prefers, and chooses under the grammar only when it rejects it
    (``_sampling``): the reply is the stock chain's, token for token, and the rejections were taken."""
    from ragkit.llm._sampling import GrammarLast

    model = _model(tmp_path, 0)
    fmt = {"type": "json_object", "schema": SCHEMA}
    asks = [PASSAGE + "\nWhen was Acme founded, and by whom?", "Label: the K10 reaches 1,300 mm.", "Say hello."]

    def reply(user: str) -> str:
        out = model.chat([{"role": "system", "content": INSTRUCTION + "Reply in JSON."},
                          {"role": "user", "content": user}], max_tokens=120, response_format=fmt)
        return str(out["choices"][0]["message"]["content"])

    with monkeypatch.context() as stock:
        stock.setattr(model.llama, "ask_grammar_last", False)
        expected = [reply(u) for u in asks]
        assert not isinstance(model.llama._sampler, GrammarLast)
    rejected = proposals = 0
    for user, want in zip(asks, expected, strict=True):
        assert reply(user) == want
        sampler = model.llama._sampler
        assert isinstance(sampler, GrammarLast)
        rejected, proposals = rejected + sampler.rejected, proposals + sampler.proposals
    assert 0 < rejected < proposals, (rejected, proposals)  # both paths were taken
    assert all(text.lstrip().startswith('{ "answer"') for text in expected), expected  # the grammar held


def test_a_string_in_a_reply_holds_no_raw_line_break_and_the_other_replies_are_the_same(tmp_path: Path,
                                                                                         monkeypatch) -> None:
    """Under llama-cpp-python's own grammar of the schema smollm2 breaks a line inside the "answer" string, which
    JSON forbids (the Judge would ask again: a whole call). Under ragkit's (``_grammar``) that reply is valid JSON,
    and the replies that were valid are the same."""
    import json

    model = _model(tmp_path, 0)
    fmt = {"type": "json_object", "schema": SCHEMA}
    asks = [PASSAGE + "\nWhen was Acme founded, and by whom?", "Label: the K10 reaches 1,300 mm.", "Say hello."]

    def reply(user: str) -> str:
        out = model.chat([{"role": "system", "content": INSTRUCTION + "Reply in JSON."},
                          {"role": "user", "content": user}], max_tokens=120, response_format=fmt)
        return str(out["choices"][0]["message"]["content"])

    def valid(text: str) -> bool:
        try:
            json.loads(text)
        except ValueError:
            return False
        return True

    ours = [reply(u) for u in asks]
    with monkeypatch.context() as stock:
        stock.setattr(model, "ragkit_grammar", False)
        theirs = [reply(u) for u in asks]
    assert all(valid(text) for text in ours), ours
    assert not all(valid(text) for text in theirs), theirs  # the case is met: a raw line break in a string
    assert any("\n" in text for text in theirs if not valid(text))
    assert [a for a, b in zip(ours, theirs, strict=True) if valid(b)] == [b for b in theirs if valid(b)]


def test_a_value_with_quotes_and_a_backslash_is_a_choice_and_a_grammar_that_does_not_parse_ends_no_process(
        tmp_path: Path, caplog) -> None:
    """An enum value's JSON text holds escapes ("new \\"reflective zone\\" map"); llama-cpp-python wrote them into the
    grammar unescaped, llama.cpp could not parse it, and the null sampler ended the process (a multi-hop run on
    corpora/acme). Now the value is a choice like any other; a grammar that still does not parse is said, and its
    call decoded as plain JSON."""
    import json

    from ragkit.llm._local import _parses

    model = _model(tmp_path, 0)
    values = ['Acme Conductor 2.3: new "reflective zone" map feature.', "C:\\robots\\wren.cfg", "Done, 22 January."]
    schema = {"type": "object", "properties": {"fact": {"type": "string", "enum": values}}, "required": ["fact"]}
    out = model.chat([{"role": "user", "content": "Which line is about the map feature? Reply in JSON."}],
                     max_tokens=60, response_format={"type": "json_object", "schema": schema})
    assert json.loads(out["choices"][0]["message"]["content"])["fact"] in values
    with caplog.at_level("WARNING", logger="ragkit"):
        assert not _parses(model.llama, 'root ::= "\\"a \\"b\\"" | oops')
    assert "cannot parse the grammar" in caplog.text
