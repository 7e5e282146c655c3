"""The fast extractor's entities in Japanese and Korean: MeCab's proper nouns, typed by its dictionary."""

from __future__ import annotations

import re

from ragkit.kg._nlp import fast_facts


def names(text: str, language: str) -> dict[str, str]:
    ((_, entities, _),) = fast_facts([text], [language])
    return {e.name: e.type for e in entities}


def test_korean_people_and_places() -> None:
    text = "한빛커피는 정다은 대표가 2013년 부산 해운대구에서 창업했습니다. 품질은 이수민 팀장이 맡습니다."
    found = names(text, "ko")
    assert found["정다은"] == found["이수민"] == "person"
    assert found["부산"] == found["해운대구"] == "place"


def test_japanese_names_that_touch_are_one_name() -> None:
    found = names("トヨタ自動車の豊田章男社長は名古屋で新しい工場を発表した。", "ja")
    assert found == {"トヨタ自動車": "organization", "豊田章男": "person", "名古屋": "place"}


def test_korean_keyphrases_and_summary_are_still_made() -> None:
    text = "기장 로스팅 공장은 2017년에 세웠습니다. 모든 원두를 이 공장에서 볶습니다."
    ((summary, _, keyphrases),) = fast_facts([text], ["ko"])
    assert summary and keyphrases


def test_a_chinese_person_name_begins_with_a_surname() -> None:
    # jieba tags 顾客-like words and unknown terms as person names (nr); only the surnamed ones stay people
    text = "创始人林晓梅和诸葛亮在杭州见面。如果您允许生成子钥，请回答。要与密钥建立认证关系。宁可少做，不可做坏。"
    found = names(text, "zh")
    assert found["林晓梅"] == found["诸葛亮"] == "person"
    assert all(found.get(word, "other") != "person" for word in ("子钥", "密钥建立", "宁可"))


def test_a_korean_person_name_begins_with_a_surname() -> None:
    # mecab-ko-dic calls pieces of loanwords and common words names (인명): only the surnamed ones are entities
    text = ("주식회사 한빛커피의 남궁민 이사와 박성호 공장장은 "
            "프렌치프레스용 분쇄와 리프레시 휴가, 로트 번호를 맡습니다.")
    found = names(text, "ko")
    assert found["남궁민"] == found["박성호"] == "person"
    assert not {"주식회사", "프레스", "프렌치", "로트", "프레시"} & set(found)


def test_korean_keyphrases_are_runs_of_nouns() -> None:
    # Korean glues particles and endings to its words: split at stop words, a clause stayed whole
    text = ("교육 지원: 커피 관련 자격증 응시료는 연 150만 원까지 회사가 부담합니다. "
            "기장 로스팅 공장은 2교대로 운영합니다.")
    ((_, _, keyphrases),) = fast_facts([text], ["ko"])
    assert {"커피 관련 자격증", "기장 로스팅 공장"} <= set(keyphrases)
    assert not any(k.endswith(("합니다", "은", "가", "까지")) for k in keyphrases)
    assert not {"부담", "운영"} & set(keyphrases)  # nouns made verbs by 하다: 부담합니다, "pays"


def test_a_company_named_with_its_legal_form_is_an_organisation() -> None:
    # the taggers cut these names apart (青岚 as a person's name, ひばり精工 as three nouns, 한빛 with no class)
    assert names("林晓雯，杭州青岚茶业有限公司总经理。", "zh")["青岚茶业"] == "organization"  # the place left out
    assert names("由深圳华为技术股份有限公司生产。", "zh")["华为技术"] == "organization"
    assert names("掲載日：2023年10月5日 株式会社ひばり精工 品質保証部", "ja")["ひばり精工"] == "organization"
    assert names("トヨタ自動車株式会社と有限会社山田商店が提携した。", "ja")["山田商店"] == "organization"
    found = names("주식회사 한빛커피(이하 회사)는 삼성전자 주식회사와 거래합니다.", "ko")
    assert found["한빛커피"] == found["삼성전자"] == "organization"
    # a legal form with no name beside it names nothing
    assert "organization" not in names("该有限公司成立于2009年。", "zh").values()
    assert "organization" not in names("우리 주식회사는 부산에 있습니다.", "ko").values()


def test_names_given_with_their_chinese_forms_in_brackets() -> None:
    """spaCy's English model ends a span inside the bracket of a name's Chinese form; the name keeps no half of it."""
    found = names("Ruixuan Luo （罗睿轩）, Jingjing Xu（许晶晶）, Xuancheng Ren（任宣丞）, Yi Zhang（张艺）\n\n"
                  "The toolkit uses the dictionary files of OpenCC, developed by BYVoid(byvoid.kcp@gmail.com).", "en")
    assert {"Xuancheng Ren", "Yi Zhang", "BYVoid"} <= set(found)
    assert all(n.count("(") == n.count(")") for n in found)


def test_an_english_model_tags_no_chinese_span() -> None:
    found = names("opencc-python 是用純 Python 所寫，使用由 BYVoid(byvoid.kcp@gmail.com) 所開發的 OpenCC "
                  "中的字典檔案。\n\nopencc-python is made by pure Python with the dictionary files of OpenCC.", "en")
    assert found and not any(re.search(r"[\u4e00-\u9fff]", n) for n in found)


def test_code_is_no_name() -> None:
    """spaCy's model tags code as names: a keyword argument's value, a qualified class, a command."""
    found = names("Call smart_truncate(string, max_length=0, word_boundary=False, save_order=False) instead.\n\n"
                  "Deprecated: pathspec.patterns.GitWildMatchPattern is now an alias.\n\n"
                  "$ zypper in python3-xmltodict\n\n"
                  "Install it with the backend argument to PathSpec().\n\n"
                  "Jane Smith (Acme Robotics) wrote it in Eindhoven.", "en")
    assert not {"False", "GitWildMatchPattern", "zypper", "PathSpec"} & set(found)
    assert "Jane Smith" in found


def test_code_gives_no_keyphrase() -> None:
    """A comment and the command under it made the keyphrase "cafe slugify --regex pattern", and the abstract
    generator asked about "the `cafe slugify` function"."""
    ((_, _, phrases),) = fast_facts(["Slugs are made from titles with explicit transliteration choices.\n\n"
                                     "# cafe\nslugify --regex-pattern '[^-a-z0-9]+' 'This is a test'\n\n"
                                     ">>> import humanize\n>>> p = inflect.engine()\n"], ["en"])
    assert phrases and not [p for p in phrases if "regex" in p or "import" in p or "=" in p]
