"""The critic's borrowed-record check: a reference giving one list item's or table row's facts under another's name."""

from kg_builder import build_graph

from ragkit.synthesis._critic import Critic
from ragkit.synthesis._records import borrowed_record, kind, named
from ragkit.types import ContextRef, TestSample

# corpora/zh, org-structure.html (the chat of the live test that kept the swap, session 31)
LEADERS = ("杭州青岚茶业有限公司组织架构\n\n公司领导\n\n- 董事长：沈嘉禾（公司创始人，2009年创立公司）\n"
           "- 总经理：林晓雯（2018年起任职，向董事长汇报）\n\n以下部门均向总经理汇报。")
ZH_NAMES = ["沈嘉禾", "林晓雯", "杭州青岚"]

# corpora/acme, project-lark-charter.docx
WORKSTREAMS = ("5. Workstreams\n\nWorkstream | Lead | Location | Main deliverable\n"
               "Vision-guided picking | Eva de Vries | Eindhoven | Part location and pick planning\n"
               "Safety monitoring | Joanna Pike | Manchester | Dual-channel stop-distance monitoring\n"
               "Motion and payload | Tom Whitaker | Manchester | Payload auto-ID, trajectory blending")
EN_NAMES = ["Eva de Vries", "Joanna Pike", "Tom Whitaker", "Eindhoven", "Manchester", "Project Lark"]

# corpora/ja, a company profile: two officers took office in the same month
OFFICERS = ("役員\n\n役職 | 氏名 | 就任\n代表取締役社長 | 山田恵子 | 2019年4月\n取締役会長 | 山田達夫 | 2019年4月\n"
            "取締役 技術本部長 | 佐々木亮 | 2017年6月")
JA_NAMES = ["山田恵子", "山田達夫", "佐々木亮"]


def test_records_are_list_items_and_table_rows():
    assert kind("- 总经理：林晓雯") == "item" and kind("2. Main specifications apply") == "item"
    assert kind("Safety monitoring | Joanna Pike | Manchester") == "row"
    assert kind("Priya Raman leads Project Lark.") is None and kind("公司领导") is None


def test_names_are_found_whole_and_once():
    assert named(["Acme", "Acme Robotics", "Eva"], "Acme Robotics hired Evan.") == ["Acme Robotics"]
    assert named(ZH_NAMES, "沈嘉禾是创始人") == ["沈嘉禾"]


def test_a_record_under_another_records_name_is_flagged():
    found = borrowed_record("是的，沈嘉禾担任杭州青岚茶业有限公司的总经理，2018年起任职，向董事长汇报。",
                            "沈嘉禾担任它的总经理吗？", [LEADERS], ZH_NAMES)
    assert found is not None and "林晓雯" in found and "沈嘉禾" in found
    found = borrowed_record("Joanna Pike leads the vision-guided picking workstream, which delivers part location "
                            "and pick planning.", "Which workstream does Joanna Pike lead?", [WORKSTREAMS], EN_NAMES)
    assert found is not None and "Eva de Vries" in found


def test_right_references_are_not_flagged():
    # the record's own name is given
    assert borrowed_record("林晓雯自2018年起任总经理，向董事长汇报。", "谁是总经理？", [LEADERS], ZH_NAMES) is None
    assert borrowed_record("Eva de Vries leads vision-guided picking, delivering part location and pick planning.",
                           "Who leads vision-guided picking?", [WORKSTREAMS], EN_NAMES) is None
    # the name of no other record: the company, named in the title, is not a list item
    assert borrowed_record("杭州青岚茶业的总经理2018年起任职，向董事长汇报。", "青岚茶业的总经理何时起任职？",
                           [LEADERS], ZH_NAMES) is None
    # the name's own row states the same words (the same month)
    assert borrowed_record("山田恵子は2019年4月から代表取締役社長を務めている。", "山田恵子はいつから社長か？",
                           [OFFICERS], JA_NAMES) is None
    # too little copied to tell: a role beside a name
    assert borrowed_record("沈嘉禾是总经理。", "沈嘉禾是总经理吗？", [LEADERS], ZH_NAMES) is None
    # prose is not a record
    prose = "Eva de Vries leads the Eindhoven office. Vision-guided picking delivers part location and pick planning."
    assert borrowed_record("Joanna Pike's workstream delivers part location and pick planning.", "What does Joanna "
                           "Pike's workstream deliver?", [prose], EN_NAMES) is None


async def test_the_critic_drops_a_borrowed_record(embeddings):
    kg = build_graph({"org.md": [(LEADERS, [("沈嘉禾", "person"), ("林晓雯", "person"), ("杭州青岚", "place")])]},
                     embeddings, language="zh")
    chunk = kg.chunks()[0]

    def sample(answer: str) -> TestSample:
        return TestSample(id="z", question="沈嘉禾在杭州青岚茶业有限公司担任什么职务？", reference_answer=answer,
                          language="zh",
                          reference_contexts=[ContextRef(chunk_id=chunk.id, text=chunk.text, source=chunk.source)])

    critic = Critic(kg, None, embeddings, llm_check=False)
    verdict = critic.cheap_checks(sample("沈嘉禾担任总经理，2018年起任职，向董事长汇报。"))
    assert verdict.reason == "borrowed_record" and "林晓雯" in verdict.detail
    assert critic.cheap_checks(sample("沈嘉禾是公司创始人、董事长，2009年创立公司。")).ok
    # a later turn of a chat, as the live test's Chinese chat had it
    from ragkit.synthesis._conversation_review import _cheap_later_turn
    from ragkit.types import Conversation, Turn

    later = sample("是的，沈嘉禾担任杭州青岚茶业有限公司的总经理，2018年起任职，向董事长汇报。").model_copy(update={
        "question": "沈嘉禾担任它的总经理吗？", "conversation": Conversation(id="c", turn=2),
        "history": [Turn(question="沈嘉禾是杭州青岚茶业有限公司的创始人吗？")],
        "metadata": {"standalone_question": "沈嘉禾担任杭州青岚茶业有限公司的总经理吗？"}})
    assert _cheap_later_turn(critic, later).reason == "borrowed_record"
