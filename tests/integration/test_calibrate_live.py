"""``ragkit calibrate`` end to end on the embedded judge: six labelled samples in three languages (CI, ≤ 3 min)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ragkit.cli import cli

pytestmark = pytest.mark.live

BRIDGE = "The Harlow Footbridge over the river Tamsin was designed by the engineer Mara Quill. It opened in 1932."
QINGSHI = "青石桥由工程师林晓明设计，于1958年建成通车，全长420米。"
HANBIT = "한빛교는 건축가 박서준이 설계했으며 1975년에 개통되었다."

ROWS = [
    ("Who designed the Harlow Footbridge?", "It was designed by Mara Quill, an engineer.", BRIDGE, 1),
    ("Who designed the Harlow Footbridge?", "The Harlow Footbridge was designed by Peter Lund.", BRIDGE, 0),
    ("青石桥是谁设计的？", "设计青石桥的是工程师林晓明。", QINGSHI, 1),
    ("青石桥是谁设计的？", "青石桥由一家德国建筑公司设计。", QINGSHI, 0),
    ("한빛교는 누가 설계했나요?", "박서준이라는 건축가가 한빛교를 설계했습니다.", HANBIT, 1),
    ("한빛교는 누가 설계했나요?", "한빛교는 프랑스의 한 건축 회사가 설계했다.", HANBIT, 0),
]


def test_calibrate_on_the_embedded_judge(tmp_path: Path) -> None:
    data = tmp_path / "labels.jsonl"
    data.write_text("".join(json.dumps({"id": f"s{i}", "user_input": q, "response": a, "retrieved_contexts": [c],
                                        "labels": {"faithfulness": y}}, ensure_ascii=False) + "\n"
                            for i, (q, a, c, y) in enumerate(ROWS)), encoding="utf-8")
    out = tmp_path / "calibration.json"
    result = CliRunner().invoke(cli, ["calibrate", str(data), "--no-save", "-o", str(out), "--no-progress"])
    assert result.exit_code == 0, result.output
    assert "Agreement with your labels" in result.stderr
    saved = json.loads(out.read_text())
    faith = saved["metrics"]["faithfulness"]
    assert faith["kind"] == "binary" and faith["n"] == 6 and len(faith["pairs"]) == 6
    # the embedded judge tells these grounded answers from the invented ones
    assert faith["auc"] is not None and faith["auc"] >= 0.75, faith
