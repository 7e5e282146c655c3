"""Faithfulness of right answers wrapped as RAG systems write them (session 52): a preamble naming the documents, a
closing courtesy, a sentence saying what the documents do not give, and all three, on bench/validity_cases.json's
right answers and passages. Three sets of wrappings, each on its own 8 cases: ``design`` (written before the aside
rule), ``held`` (written with it, read before the rule was widened) and ``held2`` (written after that, before the
wider rule ran on it). Figures: bench/README.md, "Asides about the sources, and courtesies, are no claims".

Usage (from the repo root): ``PYTHONPATH=. .venv/bin/python bench/aside_probe.py design|held|held2``
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ragkit.evaluation import evaluate_sync
from ragkit.llm import Judge

sys.path.insert(0, str(Path(__file__).parent))
from validity import answer_samples  # noqa: E402

SETS = {  # per language: (preamble, courtesy, what the documents do not give); then the set's cases
    "design": ({
        "en": ("According to the provided documents, ", " I hope this helps!",
               " The documents do not say anything about its cost."),
        "zh": ("根据提供的资料，", "希望对您有帮助！", "资料中没有提到相关费用。"),
        "ja": ("提供された資料によると、", "お役に立てれば幸いです。", "費用については資料に記載がありません。"),
        "ko": ("제공된 자료에 따르면, ", " 도움이 되었으면 합니다.", " 비용에 대해서는 자료에 나와 있지 않습니다."),
    }, ["en-bridge", "en-ship", "zh-bridge", "zh-founder", "ja-composer", "ja-plants", "ko-bridge", "ko-founder"]),
    "held": ({
        "en": ("Based on the context, ", " Let me know if you need anything else.",
               " No information is given about what it cost."),
        "zh": ("根据上下文，", "希望以上信息对你有所帮助。", "上述资料并未说明相关费用。"),
        "ja": ("資料に基づくと、", "ご参考になれば幸いです。", "費用に関する情報は資料に含まれていません。"),
        "ko": ("문서에 따르면 ", " 도움이 되셨기를 바랍니다.", " 비용 정보는 자료에 없습니다."),
    }, ["en-painter", "en-formats", "zh-novel", "zh-dose", "ja-library", "ja-hs5", "ko-languages", "ko-fee"]),
    "held2": ({
        "en": ("From what I can see in the documents, ", " Hope that helps.", " The passages don't cover its cost."),
        "zh": ("从文档来看，", "如有其他问题，欢迎继续提问。", "文档里没有关于费用的信息。"),
        "ja": ("ドキュメントを見る限り、", "他にご質問があればお気軽にどうぞ。",
               "なお、費用は資料に書かれていません。"),
        "ko": ("자료를 보면 ", " 궁금한 점이 있으면 언제든 물어보세요.", " 다만 비용은 문서에 적혀 있지 않습니다."),
    }, ["en-results", "en-depots", "zh-stores", "zh-farms", "ja-lines", "ja-sales", "ko-branches", "ko-menu"]),
}
FORMS = ("plain", "preamble", "closing", "aside", "all")


def main() -> None:
    wraps, ids = SETS[sys.argv[1] if len(sys.argv) > 1 else "design"]
    cases = [c for c in json.loads((Path(__file__).parent / "validity_cases.json").read_text()) if c["id"] in ids]
    samples, tags = [], []
    for case in cases:
        base = next(s for s in answer_samples(case) if s.test.id.endswith(":right"))
        pre, post, absent = wraps[case["lang"]]
        right = case["right"]
        opened = right[0].lower() + right[1:] if case["lang"] == "en" else right
        answers = (right, pre + opened, right + post, right + absent, pre + opened + absent + post)
        for form, answer in zip(FORMS, answers, strict=True):
            samples.append(base.model_copy(update={"response": base.response.model_copy(update={"answer": answer})}))
            tags.append((case["id"], form))
    result = evaluate_sync(samples, ["faithfulness"], judge=Judge(), progress=False)
    by_form: dict[str, list[float]] = {f: [] for f in FORMS}
    for (cid, form), row in zip(tags, result.samples, strict=True):
        score = row.scores["faithfulness"]
        claims = [c["text"] for c in (score.details or {}).get("claims", {}).get("claims", [])]
        print(f"{cid:14s} {form:9s} {score.value if score.value is None else round(score.value, 2)}  "
              f"{claims or score.explanation}")
        by_form[form].append(score.value or 0.0)
    print({f: round(sum(v) / len(v), 3) for f, v in by_form.items()}, "(a failed score counts 0)")


if __name__ == "__main__":
    main()
