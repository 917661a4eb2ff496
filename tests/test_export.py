"""Exports over a small synthetic catalog: every format parses back with the right fields."""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import bibtexparser
import click
import jsonschema
import pytest
from bibtexparser import middlewares
from click.testing import CliRunner

from ddl_catalog import export
from ddl_catalog.cli import cli
from ddl_catalog.export import atom, bibtex, csl
from ddl_catalog.export import csv as csv_export
from ddl_catalog.export.names import Name, split_name
from ddl_catalog.export.venues import is_journal
from ddl_catalog.model import Catalog, Entry
from ddl_catalog.model.build import open_catalog

FIXTURE_DATA = Path(__file__).parent / "fixtures" / "export" / "data"
ATOM = "{http://www.w3.org/2005/Atom}"
RFC3339 = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$")
CITABLE = {
    "anonymous-whitepaper",
    "bennun2019demystifying",
    "desa2017understanding",
    "goyal2017accurate",
    "liu2020distributed",
    "old2006cluster",
}


@pytest.fixture
def root(catalog_dir: Callable[..., Path]) -> Path:
    """A catalog of eight entries covering every BibTeX type and the CSV injection cases."""
    path: Path = catalog_dir()
    shutil.copytree(FIXTURE_DATA, path / "data", dirs_exist_ok=True)
    return path


@pytest.fixture
def catalog(root: Path) -> Catalog:
    return open_catalog(root)


def parse_bib(text: str) -> bibtexparser.Library:
    library = bibtexparser.parse_string(
        text,
        append_middleware=[
            middlewares.SeparateCoAuthors(),
            middlewares.SplitNameParts(),
            middlewares.LatexDecodingMiddleware(),
        ],
    )
    assert library.failed_blocks == []
    return library


def plain(text: str) -> str:
    """Undo pylatexenc's one quirk: it decodes \\textasciicircum as a modifier letter."""
    return text.replace("ˆ", "^")


# --- BibTeX ---------------------------------------------------------------------------------


def test_bibtex_parses_back_with_every_field(catalog: Catalog) -> None:
    library = parse_bib(export.render(catalog, "bibtex"))
    assert [b.key for b in library.entries] == sorted(CITABLE)
    for block in library.entries:
        entry = catalog.get(block.key)
        assert entry is not None
        fields = block.fields_dict
        assert block.entry_type == bibtex.entry_type(entry)
        assert plain(block["title"]) == entry.title
        assert ("year" in fields) == (entry.year is not None)
        if entry.year is not None:
            assert block["year"] == str(entry.year)
        assert fields["doi"].value if entry.identifiers.doi else "doi" not in fields
        if entry.identifiers.doi:
            assert block["doi"] == entry.identifiers.doi
        if entry.identifiers.arxiv:
            assert block["eprint"] == entry.identifiers.arxiv
            assert block["archivePrefix"] == "arXiv"
        else:
            assert "eprint" not in fields
        assert block["url"] == entry.url
        authors = fields["author"].value if "author" in fields else []
        assert len(authors) == len(entry.authors)
        for parts, author in zip(authors, entry.authors, strict=True):
            name = split_name(author)
            if name.literal:
                assert parts.last == ["{" + name.literal + "}"]
            else:
                assert " ".join(parts.von + parts.last) == name.family
                assert " ".join(parts.first) == name.given
                assert " ".join(parts.jr) == name.suffix


def test_bibtex_entry_types_follow_the_venue_table(catalog: Catalog) -> None:
    blocks = parse_bib(export.render(catalog, "bibtex")).entries_dict
    assert blocks["bennun2019demystifying"].entry_type == "article"
    assert blocks["bennun2019demystifying"]["journal"] == "ACM Computing Surveys"
    assert blocks["desa2017understanding"].entry_type == "inproceedings"
    assert blocks["desa2017understanding"]["booktitle"] == "NeurIPS"
    assert blocks["liu2020distributed"].entry_type == "book"
    assert blocks["goyal2017accurate"].entry_type == "misc"
    assert "primaryClass" not in blocks["goyal2017accurate"].fields_dict
    assert blocks["old2006cluster"]["primaryClass"] == "cs.DC"
    anonymous = blocks["anonymous-whitepaper"]
    assert anonymous.entry_type == "misc"
    assert "author" not in anonymous.fields_dict
    assert anonymous["howpublished"] == "https://example.org/whitepaper.pdf"
    assert anonymous["note"] == "Paper"


def test_bibtex_escapes_specials_and_protects_capitals(catalog: Catalog) -> None:
    entry = catalog.get("bennun2019demystifying")
    assert entry is not None
    text = bibtex.entry_bibtex(entry)
    title = re.search(r"title = \{(.*)\},\n", text)
    assert title is not None
    assert title.group(1) == (
        r"{Demystifying} {Parallel} \& {Distributed} {Deep} {Learning}: 100\% of {SGD\_v2} "
        r"costs \$5 \#1 \{fast\} \textasciitilde{}x\textasciicircum{}2 a\textbackslash{}b"
    )
    assert "journal = {{ACM} {Computing} {Surveys}}" in text
    raw = bibtexparser.parse_string(text).entries[0]  # default stack: braces balanced
    assert raw["title"].count("{") == raw["title"].count("}")


def test_bibtex_keeps_non_ascii_as_utf8(catalog: Catalog) -> None:
    text = export.render(catalog, "bibtex")
    assert "Dollár, Piotr" in text
    assert "Abadi, Martín" in text
    assert "De Sa, Christopher" in text
    assert "van der Beethoven, Ludwig" in text
    assert "Smith, Jr., John" in text
    assert "{OpenAI Dota Team}" in text


def test_entry_bibtex_is_the_block_of_papers_bib(catalog: Catalog) -> None:
    whole = export.render(catalog, "bibtex")
    for entry in catalog:
        one = bibtex.entry_bibtex(entry)
        [block] = parse_bib(one).entries
        assert block.key == entry.id
        if entry.kind in bibtex.CITABLE_KINDS:
            assert one in whole
        else:
            assert block.entry_type == "misc"
            assert f"@misc{{{entry.id}," not in whole


def test_special_characters_in_every_bibtex_field() -> None:
    entry = Entry(
        id="x",
        kind="paper",
        title="A_b",
        url="https://example.org/a{b}",
        description="D.",
        categories=("c",),
        source="data/papers/x.yml",
        authors=("Jean_Luc O'Neil & Co",),
        venue="Proc. 50% & More",
    )
    text = bibtex.entry_bibtex(entry)
    assert "url = {https://example.org/a%7Bb%7D}" in text
    assert r"booktitle = {{Proc}. 50\% \& {More}}" in text
    assert r"{O'Neil} \& {Co}" not in text  # names are not title-protected
    assert r"Co, Jean\_Luc O'Neil \&" in text
    assert parse_bib(text).entries[0].key == "x"


#: Hostile values: each breaks a BibTeX file whose braces are only backslash-escaped.
HOSTILE_BIB = {
    "lone2020close": {"title": "Closing } brace drops the entry", "venue": "Conf } x"},
    "lone2020open": {"title": "Opening { brace swallows what follows", "venue": "Proc. {"},
    "inject2020entry": {
        "title": "Looks fine @misc{evil, title={Injected}} and @article {x,",
        "venue": "@inproceedings{y,",
    },
    "nested2020pairs": {"title": "Kept {Pairs} and {{nested}} ones \\{ too", "venue": "V"},
    "names2020and": {
        "title": "Organisations as authors",
        "authors": ["Procter and Gamble Research", "Ann Lee", "R AND D Group", "Jo Andersen"],
    },
}


def bibtex_blocks(text: str) -> list[str]:
    """Return the keys BibTeX itself finds: it counts every brace, escaped or not."""
    unescaped = re.sub(r"\\([{}])", r"\\ \1", text)  # a brace bibtexparser counts, as BibTeX does
    library = bibtexparser.parse_string(unescaped)
    assert library.failed_blocks == []
    for block in library.entries:
        for field in block.fields:
            depth = 0
            for char in field.value:
                depth += {"{": 1, "}": -1}.get(char, 0)
                assert depth >= 0, (block.key, field.key, field.value)
            assert depth == 0, (block.key, field.key, field.value)
    return [block.key for block in library.entries]


def test_hostile_values_round_trip_to_exactly_their_entries(
    catalog_dir: Callable[..., Path],
) -> None:
    from pylatexenc.latex2text import LatexNodes2Text, MacroTextSpec, get_default_latex_context_db

    files = {}
    for key, values in sorted(HOSTILE_BIB.items()):
        authors = values.get("authors", ["Ann Lee"])
        files[f"data/papers/{key}.yml"] = (
            f"id: {key}\nkind: paper\ntitle: {json.dumps(values['title'])}\n"
            f"url: https://example.org/{key}\ndescription: A paper with hostile fields.\n"
            f"categories: [surveys]\nauthors: {json.dumps(authors)}\nyear: 2020\n"
            + (f"venue: {json.dumps(values['venue'])}\n" if "venue" in values else "")
        )
    catalog = open_catalog(catalog_dir(files))
    text = export.render(catalog, "bibtex")
    assert bibtex_blocks(text) == sorted(HOSTILE_BIB)
    latex = get_default_latex_context_db()
    latex.add_context_category(  # LaTeX's own commands for a lone brace
        "braces",
        prepend=True,
        macros=[
            MacroTextSpec("textbraceleft", simplify_repl="{"),
            MacroTextSpec("textbraceright", simplify_repl="}"),
        ],
    )
    library = bibtexparser.parse_string(
        text,
        append_middleware=[
            middlewares.SeparateCoAuthors(),
            middlewares.LatexDecodingMiddleware(decoder=LatexNodes2Text(latex_context=latex)),
        ],
    )
    assert library.failed_blocks == []
    assert [block.key for block in library.entries] == sorted(HOSTILE_BIB)
    for block in library.entries:
        values = HOSTILE_BIB[block.key]
        assert block["title"] == values["title"]
        venue = block.fields_dict.get("booktitle") or block.fields_dict.get("howpublished")
        if "venue" in values:
            assert venue is not None and venue.value == values["venue"]
        authors = [name.strip("{}") for name in block["author"]]
        assert len(authors) == len(values.get("authors", ["Ann Lee"])), authors
    names = library.entries_dict["names2020and"]["author"]
    assert names[0] == "{Procter and Gamble Research}"  # one author, braced whole
    assert names[2] == "{R AND D Group}"


# --- JSON -----------------------------------------------------------------------------------


def test_json_validates_against_the_published_schema(catalog: Catalog) -> None:
    schema = json.loads(export.schema_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    doc = json.loads(export.render(catalog, "json"))
    jsonschema.Draft202012Validator(
        schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
    ).validate(doc)
    assert doc["version"] == 1
    assert doc["generated_from"]["tool"] == "ddl-catalog"
    assert [e["id"] for e in doc["entries"]] == sorted(e.id for e in catalog)
    horovod = next(e for e in doc["entries"] if e["id"] == "horovod")
    assert horovod["identifiers"] == {"arxiv": None, "doi": None, "github": "horovod/horovod"}
    assert horovod["related"] == [{"id": "goyal2017accurate", "relation": "see-also"}]
    assert horovod["source"] == "data/frameworks/horovod.yml"
    assert [c["id"] for c in doc["categories"]] == list(catalog.categories)


def test_json_schema_rejects_a_broken_document(catalog: Catalog) -> None:
    schema = json.loads(export.schema_text())
    doc = json.loads(export.render(catalog, "json"))
    del doc["entries"][0]["title"]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(doc, schema)


# --- CSV ------------------------------------------------------------------------------------


def test_csv_has_one_row_per_entry_and_lists_joined(catalog: Catalog) -> None:
    text = export.render(catalog, "csv")
    rows = list(csv.DictReader(io.StringIO(text, newline="")))
    assert [r["id"] for r in rows] == sorted(e.id for e in catalog)
    assert list(rows[0]) == list(csv_export.COLUMNS)
    by_id = {r["id"]: r for r in rows}
    desa = by_id["desa2017understanding"]
    assert desa["authors"].split("; ") == list(catalog.get("desa2017understanding").authors)  # type: ignore[union-attr]
    assert by_id["bennun2019demystifying"]["categories"] == "surveys; parallelism"
    assert by_id["horovod"]["links"] == (
        "docs https://horovod.readthedocs.io/; paper https://arxiv.org/abs/1802.05799"
    )
    assert by_id["horovod"]["related"] == "see-also goyal2017accurate"
    assert by_id["old2006cluster"]["added"] == ""
    assert (
        by_id["bennun2019demystifying"]["title"]
        == catalog.get(  # type: ignore[union-attr]
            "bennun2019demystifying"
        ).title
    )


def test_csv_defuses_formula_cells(catalog: Catalog) -> None:
    rows = {r["id"]: r for r in csv.DictReader(io.StringIO(export.render(catalog, "csv")))}
    assert rows["horovod"]["title"] == '\'=HYPERLINK("http://evil.example","Horovod")'
    assert rows["plus-article"]["title"] == "'+1 for allreduce"
    assert rows["plus-article"]["venue"] == "'-Blog"
    assert rows["plus-article"]["authors"] == "'-Dash Author; @handle Person"
    for row in rows.values():
        for cell in row.values():
            assert not cell.startswith(("=", "+", "-", "@", "\t", "\r"))


@pytest.mark.parametrize("cell", ["=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx"])
def test_safe_cell_prefixes_triggers(cell: str) -> None:
    assert csv_export.safe_cell(cell) == "'" + cell


@pytest.mark.parametrize("cell", ["", "Horovod", "a=b", "2019", "'quoted"])
def test_safe_cell_keeps_plain_text(cell: str) -> None:
    assert csv_export.safe_cell(cell) == cell


# --- CSL-JSON -------------------------------------------------------------------------------


def test_csl_json_items(catalog: Catalog) -> None:
    items = {i["id"]: i for i in json.loads(export.render(catalog, "csljson"))}
    assert set(items) == CITABLE
    bennun = items["bennun2019demystifying"]
    assert bennun["type"] == "article-journal"
    assert bennun["container-title"] == "ACM Computing Surveys"
    assert bennun["DOI"] == "10.1145/3320060"
    assert bennun["URL"] == "https://arxiv.org/abs/1802.09941"
    assert bennun["issued"] == {"date-parts": [[2019]]}
    assert bennun["author"] == [
        {"family": "Ben-Nun", "given": "Tal"},
        {"family": "Hoefler", "given": "Torsten"},
    ]
    assert bennun["title"] == catalog.get("bennun2019demystifying").title  # type: ignore[union-attr]
    desa = items["desa2017understanding"]
    assert desa["type"] == "paper-conference"
    assert desa["author"][0] == {"family": "De Sa", "given": "Christopher"}
    assert desa["author"][3] == {"family": "Smith", "given": "John", "suffix": "Jr."}
    assert desa["author"][4] == {"literal": "OpenAI Dota Team"}
    goyal = items["goyal2017accurate"]
    assert goyal["type"] == "article"
    assert goyal["number"] == "1706.02677"
    assert goyal["publisher"] == "arXiv"
    assert items["liu2020distributed"]["type"] == "book"
    assert "issued" not in items["old2006cluster"] or items["old2006cluster"]["issued"]
    assert "author" not in items["anonymous-whitepaper"]
    for item in items.values():
        assert item["type"] in {"article-journal", "paper-conference", "book", "article"}
        assert isinstance(item["title"], str)


def test_csl_type_of_other_kinds(catalog: Catalog) -> None:
    horovod = catalog.get("horovod")
    assert horovod is not None
    assert csl.csl_type(horovod) == "webpage"


# --- Atom -----------------------------------------------------------------------------------


def test_atom_feed_has_the_spec_essentials(catalog: Catalog) -> None:
    text = export.render(catalog, "atom", site_url="https://example.org/ddl/")
    feed = ET.fromstring(text.encode())
    assert feed.tag == f"{ATOM}feed"
    assert feed.findtext(f"{ATOM}id") == "tag:ddl-catalog.github.io,2026:feed"
    assert feed.findtext(f"{ATOM}title")
    assert feed.findtext(f"{ATOM}updated") == "2026-03-02T00:00:00+00:00"
    assert feed.find(f"{ATOM}author/{ATOM}name") is not None
    self_link = feed.find(f"{ATOM}link[@rel='self']")
    assert self_link is not None
    assert self_link.get("href") == "https://example.org/ddl/feed.xml"
    entries = feed.findall(f"{ATOM}entry")
    ids = [e.findtext(f"{ATOM}id") for e in entries]
    dated = [e for e in catalog if e.added]
    assert len(entries) == len(dated)
    assert len(set(ids)) == len(ids)
    updated = []
    for node in entries:
        assert (node.findtext(f"{ATOM}id") or "").startswith("tag:ddl-catalog.github.io,2026:")
        assert node.findtext(f"{ATOM}title")
        stamp = node.findtext(f"{ATOM}updated") or ""
        assert RFC3339.match(stamp), stamp
        links = [
            ln for ln in node.findall(f"{ATOM}link") if ln.get("rel", "alternate") == "alternate"
        ]
        assert len(links) == 1  # no atom:content, so exactly one alternate link (RFC 4287 4.1.2)
        assert (links[0].get("href") or "").startswith("https://")
        updated.append(stamp)
    assert updated == sorted(updated, reverse=True)
    prefix = "tag:ddl-catalog.github.io,2026:"  # the fixture's catalog.yml feed.id
    assert ids[:3] == [
        atom.entry_tag(i, prefix) for i in ("desa2017understanding", "goyal2017accurate", "horovod")
    ]
    assert atom.entry_tag("old2006cluster", prefix) not in ids


def test_atom_without_dates_is_still_valid() -> None:
    feed = ET.fromstring(atom.render([]).encode())
    assert RFC3339.match(feed.findtext(f"{ATOM}updated") or "")
    assert feed.findall(f"{ATOM}entry") == []


# --- registry, site files, determinism ------------------------------------------------------


def test_category_selects_subcategories_too(catalog: Catalog) -> None:
    ids = {e.id for e in export.select(catalog, "parallelism")}
    assert ids == {
        "bennun2019demystifying",
        "desa2017understanding",
        "goyal2017accurate",
        "horovod",
        "old2006cluster",
    }
    with pytest.raises(export.ExportError, match="unknown category 'nope'"):
        export.select(catalog, "nope")
    with pytest.raises(export.ExportError, match="unknown format"):
        export.render(catalog, "yaml")


def test_site_files_writes_every_format(catalog: Catalog, tmp_path: Path) -> None:
    site = tmp_path / "site"
    written = export.site_files(catalog, site, site_url="https://example.org/")
    rel = sorted(str(p.relative_to(site)) for p in written)
    one_each = [r for r in rel if r.startswith("bib/entries/")]
    assert one_each == sorted(
        f"bib/entries/{e.id}.bib" for e in catalog if e.kind in ("paper", "book")
    )
    for path in one_each:
        entry = catalog.get(path.removeprefix("bib/entries/").removesuffix(".bib"))
        assert entry is not None
        text = (site / path).read_text(encoding="utf-8")
        assert text == bibtex.entry_bibtex(entry)
        assert [b.key for b in parse_bib(text).entries] == [entry.id]
    rel = [r for r in rel if r not in one_each]
    assert rel == [
        "api/catalog.json",
        "api/catalog.schema.json",
        "bib/parallelism.bib",
        "bib/surveys.bib",
        "catalog.csv",
        "feed.xml",
        "papers.bib",
        "papers.json",
    ]
    surveys = parse_bib((site / "bib/surveys.bib").read_text(encoding="utf-8"))
    assert {b.key for b in surveys.entries} == {
        "anonymous-whitepaper",
        "bennun2019demystifying",
        "liu2020distributed",
    }
    assert json.loads((site / "api/catalog.schema.json").read_text())["$id"].endswith(
        "catalog.schema.json"
    )
    assert oct((site / "papers.bib").stat().st_mode & 0o777) == oct(0o644)
    assert not list(site.rglob("*.tmp"))


def tree(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()
    }


def test_two_runs_are_byte_identical(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    export.site_files(open_catalog(root), tmp_path / "a")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "0")
    export.site_files(open_catalog(root), tmp_path / "b")
    first, second = tree(tmp_path / "a"), tree(tmp_path / "b")
    assert first == second
    assert len([p for p in first if not p.startswith("bib/entries/")]) == 8


def test_write_atomic_keeps_the_old_file_on_failure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "out.bib"
    target.write_text("good\n")

    def broken(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("ddl_catalog.files.os.replace", broken)
    with pytest.raises(export.ExportError, match=r"cannot write .*No space left"):
        export.write_atomic(target, "new\n")
    assert target.read_text() == "good\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.bib"]


# --- command line ---------------------------------------------------------------------------


def test_cli_prints_to_stdout(root: Path) -> None:
    result = CliRunner().invoke(cli, ["export", "--root", str(root), "--format", "csljson"])
    assert result.exit_code == 0, result.output
    assert {i["id"] for i in json.loads(result.output)} == CITABLE


def test_cli_category_and_output_file(root: Path, tmp_path: Path) -> None:
    out = tmp_path / "deep" / "surveys.bib"
    result = CliRunner().invoke(
        cli,
        [
            "export",
            "--root",
            str(root),
            "--format",
            "bibtex",
            "--category",
            "surveys",
            "-o",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    assert result.output == ""
    assert {b.key for b in parse_bib(out.read_text(encoding="utf-8")).entries} == {
        "anonymous-whitepaper",
        "bennun2019demystifying",
        "liu2020distributed",
    }


def test_cli_into_writes_the_site_files(root: Path, tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["export", "--root", str(root), "--into", str(tmp_path / "x")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "x" / "feed.xml").is_file()
    lines = result.output.splitlines()
    assert len([line for line in lines if "/bib/entries/" not in line]) == 8


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--format", "csv", "--category", "nope"], "Error: unknown category 'nope'"),
        ([], "give either --format or --into"),
        (["--format", "csv", "--into", "x"], "give either --format or --into"),
    ],
)
def test_cli_bad_options_fail_in_one_line(root: Path, args: list[str], message: str) -> None:
    result = CliRunner().invoke(cli, ["export", "--root", str(root), *args])
    assert result.exit_code != 0
    assert message in result.output
    assert "Traceback" not in result.output


def test_cli_invalid_catalog_leaves_the_output_alone(root: Path, tmp_path: Path) -> None:
    out = tmp_path / "catalog.json"
    out.write_text("good\n")
    (root / "data" / "papers" / "broken.yml").write_text("id: broken\nkind: paper\n")
    result = CliRunner().invoke(
        cli, ["export", "--root", str(root), "--format", "json", "-o", str(out)]
    )
    assert result.exit_code == 1
    assert result.output.startswith("Error: the catalog has")
    assert len(result.output.splitlines()) == 1
    assert out.read_text() == "good\n"


def test_cli_unwritable_output_fails_in_one_line(root: Path, tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    result = CliRunner().invoke(
        cli, ["export", "--root", str(root), "--format", "csv", "-o", str(blocker / "x.csv")]
    )
    assert result.exit_code == 1
    assert result.output.startswith("Error: cannot write")
    assert "Traceback" not in result.output


# --- helpers --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "parts"),
    [
        ("Tal Ben-Nun", Name(given="Tal", family="Ben-Nun")),
        ("Greg S. Corrado", Name(given="Greg S.", family="Corrado")),
        ("Christopher De Sa", Name(given="Christopher", family="De Sa")),
        ("Mike Del Balso", Name(given="Mike", family="Del Balso")),
        ("Quoc V. Le", Name(given="Quoc V.", family="Le")),
        ("Ludwig van der Beethoven", Name(given="Ludwig", family="van der Beethoven")),
        ("John Smith Jr.", Name(given="John", family="Smith", suffix="Jr.")),
        ("Prabhat", Name(literal="Prabhat")),
        ("OpenAI Dota Team", Name(literal="OpenAI Dota Team")),
    ],
)
def test_split_name(name: str, parts: Name) -> None:
    assert split_name(name) == parts


@pytest.mark.parametrize(
    "venue",
    [
        "ACM Computing Surveys",
        "IEEE Transactions on Big Data",
        "Cluster Computing",
        "Journal of Parallel and Distributed Computing",
        "Proceedings of the IEEE",
        "International Journal of High Performance Computing Applications",
        "JMLR",
        "Neural Computation",
        "Communications of the ACM",
        "PVLDB",
        "TMLR",
    ],
)
def test_journals(venue: str) -> None:
    assert is_journal(venue)


@pytest.mark.parametrize(
    "venue", ["NeurIPS", "NIPS", "ICML", "OSDI", "SC", "ISC High Performance", "EuroPVM/MPI"]
)
def test_conferences(venue: str) -> None:
    assert not is_journal(venue)


def test_category_bib_files_names_only_categories_with_papers(catalog: Catalog) -> None:
    assert export.category_bib_files(catalog) == {
        "surveys": "bib/surveys.bib",
        "parallelism": "bib/parallelism.bib",
    }


def test_site_url_comes_from_mkdocs_yml_then_catalog_yml(root: Path) -> None:
    # the fixture's catalog.yml names one; without it there is none
    assert export.configured_site_url(root) == "https://ddl-catalog.github.io/ddl-catalog/"
    (root / "catalog.yml").unlink()
    assert export.configured_site_url(root) is None
    (root / "mkdocs.yml").write_text(
        "site_name: x\nsite_url: 'https://example.org/ddl/'  # published\ntheme: material\n"
    )
    assert export.configured_site_url(root) == "https://example.org/ddl/"
    result = CliRunner().invoke(cli, ["export", "--root", str(root), "--format", "atom"])
    assert result.exit_code == 0, result.output
    feed = ET.fromstring(result.output.encode())
    self_link = feed.find(f"{ATOM}link[@rel='self']")
    assert self_link is not None
    assert self_link.get("href") == "https://example.org/ddl/feed.xml"


def test_the_command_line_offers_every_format() -> None:
    option = next(p for p in cli.commands["export"].params if p.name == "fmt")
    assert isinstance(option.type, click.Choice)
    assert list(option.type.choices) == list(export.FORMATS)


def test_the_feed_carries_the_newest_additions_up_to_its_limit(catalog: Catalog) -> None:
    """catalog.yml's feed.limit bounds the feed; the newest additions are the ones kept."""
    from ddl_catalog.export import atom
    from ddl_catalog.settings import Settings

    dated = sorted((e for e in catalog if e.added), key=lambda e: (e.added or "", e.id))
    assert len(dated) > 2
    text = atom.render(catalog, config=Settings(feed_limit=2))
    feed = ET.fromstring(text.encode())
    ids = [e.findtext(f"{ATOM}id") for e in feed.findall(f"{ATOM}entry")]
    assert len(ids) == 2
    newest = sorted(dated, key=lambda e: (-int((e.added or "").replace("-", "")), e.id))[:2]
    assert ids == [atom.entry_tag(e.id, Settings().feed_id) for e in newest]


def test_feed_limit_is_read_from_catalog_yml_and_checked(tmp_path: Path) -> None:
    """feed.limit comes from catalog.yml; zero or a word is refused with its line."""
    from ddl_catalog import settings

    base = (
        "title: Awesome Things\ndescription: Useful things to know.\n"
        'feed:\n  id: "tag:example.org,2026:"\n'
    )
    (tmp_path / "catalog.yml").write_text(base + "  limit: 7\n", encoding="utf-8")
    assert settings.load(tmp_path).feed_limit == 7
    for bad in ("0", "many"):
        (tmp_path / "catalog.yml").write_text(base + f"  limit: {bad}\n", encoding="utf-8")
        with pytest.raises(settings.SettingsError, match=r"catalog\.yml:5:"):
            settings.load(tmp_path)
