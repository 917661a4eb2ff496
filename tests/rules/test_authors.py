from collections.abc import Callable

P = "data/papers"


def test_a_paper_names_its_people_or_its_team(findings: Callable[[str], list[str]]) -> None:
    assert findings("authors") == [
        f"{P}/both2024report.yml:7:11: error: 'Example-AI' is the team: keep it in `team` only, "
        "and list the people in authors [authors]",
        f"{P}/nobody2020paper.yml:3:1: warning: a paper needs its authors (in citation order), "
        "or `team` when its byline is a team rather than people [authors]",
    ]
