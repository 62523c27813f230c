"""Bad-input cases for eqindex (format: tests/robustness_cases/__init__.py)."""
from __future__ import annotations

from rfda_teach import eqindex
from rfda_teach.errors import ModelError

from robustness_cases import Case

CASES = [
    Case("eqindex.equations-type", lambda: eqindex.equations(8), ModelError, "nums must be a str"),
    Case("eqindex.named_paper-type", lambda: eqindex.named_paper(b"eq. (7)", 0), ModelError, "text must be a str"),
    Case("eqindex.named_paper-pos", lambda: eqindex.named_paper("eq. (7)", "0"), ModelError, "pos an int"),
    Case("eqindex.citations_in_source-bytes", lambda: eqindex.citations_in_source(b"# D&G eq. (7)", module="m"),
         ModelError, "must be a str"),
    Case("eqindex.citations_in_source-syntax", lambda: eqindex.citations_in_source("def (:", module="m"),
         ModelError, "not valid Python"),
    Case("eqindex.citations_in_source-module", lambda: eqindex.citations_in_source("", module=""),
         ModelError, "module must be"),
    Case("eqindex.package_citations-missing", lambda: eqindex.package_citations("/no/such/repo"), ModelError,
         "no rfda_teach/ package"),
    Case("eqindex.package_citations-type", lambda: eqindex.package_citations(3), ModelError, "root must be a path"),
    Case("eqindex.checking_tests-missing", lambda: eqindex.checking_tests("/no/such/repo"), ModelError,
         "no rfda_teach/ package"),
    Case("eqindex.checking_tests-citations", lambda: eqindex.checking_tests(".", citations="eq. (7)"), ModelError,
         "citations must be a list of Citation"),
    Case("eqindex.chapter_citations-missing", lambda: eqindex.chapter_citations("/no/such/repo"), ModelError,
         "no rfda_teach/ package"),
    Case("eqindex.index_page-missing", lambda: eqindex.index_page("/no/such/repo"), ModelError,
         "pass the repository's top folder"),
    Case("eqindex.write_page-missing", lambda: eqindex.write_page("/no/such/repo"), ModelError,
         "no rfda_teach/ package"),
    Case("eqindex.stale_page-missing", lambda: eqindex.stale_page("/no/such/repo"), ModelError,
         "no rfda_teach/ package"),
    Case("eqindex.main-option", lambda: eqindex.main(["--frobnicate"]), ModelError, "unknown option"),
    Case("eqindex.main-argv", lambda: eqindex.main([3]), ModelError, "argv must be a list of str"),
]

COVERED = ["eqindex.equations", "eqindex.named_paper", "eqindex.citations_in_source", "eqindex.package_citations",
           "eqindex.checking_tests", "eqindex.chapter_citations", "eqindex.index_page", "eqindex.write_page",
           "eqindex.stale_page", "eqindex.main"]

EXEMPT: dict = {"eqindex.Citation": "plain result record returned by citations_in_source"}
