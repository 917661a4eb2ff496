from collections.abc import Callable

from ddl_catalog.rules.url_host import host_warning

F = "data/papers/hosts2020paper.yml"


def test_look_alike_hosts_are_warned(findings: Callable[[str], list[str]]) -> None:
    assert findings("url-host") == [
        f"{F}:9:10: warning: 'links[0].url' host 'gіthub.com' mixes Cyrillic and Latin letters "
        "in 'gіthub', and reads as github.com: is it a look-alike? [url-host]",
        f"{F}:11:10: warning: 'links[1].url' host 'xn--raltool-7gg.example.org' mixes Cyrillic "
        "and Latin letters in 'rеaltool', and reads as realtool.example.org: is it a "
        "look-alike? [url-host]",
        f"{F}:17:10: warning: 'links[4].url' host 'аrxiv.org' mixes Cyrillic and Latin letters "
        "in 'аrxiv', and reads as arxiv.org: is it a look-alike? [url-host]",
    ]


def test_one_script_hosts_are_fine() -> None:
    assert host_warning("github.com") is None
    assert host_warning("пример.рф") is None  # all Cyrillic: a real Russian host
    assert host_warning("münchen.example") is None  # Latin with an umlaut
    assert host_warning("xn--invalid-.example") is None  # not decodable: left to the browser


def test_a_whole_label_of_look_alikes_is_warned() -> None:
    # every letter Cyrillic, so no label mixes scripts, yet it reads as a known host
    assert host_warning("рурі.org") == (
        "reads as pypi.org but uses look-alike letters: is it a look-alike?"
    )


def test_hosts_written_with_characters_idna_maps_away_are_warned() -> None:
    # a browser goes to scaling.example.org; a reader (and a plain string compare) does not see it
    for written in (
        "scal\u200bing.example.org",  # zero-width space
        "scal\u00ading.example.org",  # soft hyphen
        "\uff53\uff43\uff41\uff4c\uff49\uff4e\uff47.example.org",  # full-width letters
        "scaling\u3002example.org",  # ideographic full stop
    ):
        assert host_warning(written) == (
            "is written with characters that IDNA maps away (invisible, full-width or "
            "compatibility forms): it is the host 'scaling.example.org'; write it so"
        ), written
    assert host_warning("café.example.org") is None  # Unicode as IDNA keeps it
    assert host_warning("xn--caf-dma.example.org") is None  # its A-label
    assert host_warning("CAFÉ.example.org") is None  # upper case is just case
