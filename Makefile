# ddl-catalog: every step a contributor, a maintainer or CI runs is a target here.
# `make build` and `make test` create .venv on first use; nothing else needs installing by hand.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
CLI    := $(BIN)/ddl-catalog

.DEFAULT_GOAL := help
.PHONY: help venv npm-tools build validate readme lint-readme site exports test lint typecheck unit serve bench clean
.PHONY: fmt fmt-check lint-workflows links-report links-issue lighthouse bench-site
.PHONY: pr-check ci validate-strict readme-commit lock test-latest

help: ## List the targets.
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-10s %s\n", $$1, $$2}'

# Development and CI install from the lock, every package pinned with its hashes (transitive ones
# too, pip itself included); the package's own metadata keeps ranges, for other lists that
# install it. A changed lock or pyproject.toml rebuilds .venv from nothing, so it holds exactly
# what the lock says (`.venv/bin/pip freeze` matches it). `make lock` refreshes the lock.
LOCK := requirements/dev.txt
# scripts/make-venv does it under a lock (.venv.lock), so two `make build` started together do
# not rebuild .venv over each other: the second waits, then finds it made.
$(STAMP): pyproject.toml $(LOCK)
	$(PYTHON) scripts/make-venv $(PYTHON) $(LOCK)

venv: $(STAMP) ## Create .venv with the project and its development tools.

NPM_STAMP := tools/npm/node_modules/.installed
$(NPM_STAMP): tools/npm/package.json tools/npm/package-lock.json
	cd tools/npm && npm ci --no-audit --no-fund --loglevel=error
	@touch $@

npm-tools: $(NPM_STAMP) ## Install the pinned Node.js tools (awesome-lint, markdownlint-cli2, axe-core, linkinator).

build: $(STAMP) ## Validate the catalog, then build README.md and the site with every export.
	$(CLI) build

validate: $(STAMP) ## Check the catalog (schema and rules); fails on any error.
	$(CLI) validate

readme: $(STAMP) ## Regenerate README.md from the catalog.
	$(CLI) readme

lint-readme: $(STAMP) $(NPM_STAMP) ## Check README.md: fresh, awesome-lint (0 errors, 0 warnings), markdownlint-cli2.
	$(CLI) readme --check
	scripts/awesome-lint README.md
	tools/npm/node_modules/.bin/markdownlint-cli2 README.md CONTRIBUTING.md CODE_OF_CONDUCT.md

# ENGINE=mkdocs|zensical picks the site engine for `make site` and `make serve` (default: catalog.yml's
# site.engine, else mkdocs); `make lighthouse` and `make bench-site` measure each engine it names
# (default: both).
ENGINE ?=
site: $(STAMP) ## Build the website into site/ (strict; ENGINE=mkdocs|zensical; the last good site stays on failure).
	$(CLI) site $(if $(ENGINE),--engine $(ENGINE))

exports: $(STAMP) ## Write every export (JSON, CSV, BibTeX, CSL-JSON, Atom) into build/exports/ alone.
	$(CLI) export --into build/exports

fmt: $(STAMP) ## Put every entry file in canonical form (key order, quoting, list style).
	$(CLI) fmt

fmt-check: $(STAMP) ## Fail (listing the files) when an entry file is not in canonical form.
	$(CLI) fmt --check

lint-workflows: $(STAMP) ## actionlint on .github/workflows (binary from the PyPI wheel, offline).
	$(BIN)/actionlint -no-color -oneline

links-report: $(STAMP) ## Check every link, rewrite moved ones; write build/links.json, build/broken-links.md.
	mkdir -p build
	$(CLI) check-links --format json --fail-on '' > build/links.json
	$(CLI) check-links --fix --fail-on '' > build/links-fix.txt
	jq -r -f .github/broken-links.jq build/links.json > build/broken-links.md

links-issue: ## Open or update the broken-links issue from build/ (needs gh, jq and GH_TOKEN).
	@broken=$$(jq '[.[] | select(.outcome == "broken" or .outcome == "error")] | length' build/links.json); \
	number=$$(gh issue list --label broken-links --state open --json number --jq '.[0].number // empty'); \
	if [ -n "$$number" ]; then gh issue edit "$$number" --body-file build/broken-links.md; \
	elif [ "$$broken" != 0 ]; then \
	  gh label create broken-links --force --description "Found by the weekly link check"; \
	  gh issue create --title "Broken links" --label broken-links --body-file build/broken-links.md; \
	else echo "no broken links, no open issue: nothing to do"; fi

test: lint typecheck unit ## Run every check: ruff, mypy and the test suite.

# CI: one target per event, so that GitHub and .ci/run run the very same checks
# (tests/test_workflows.py fails when .github/workflows/ci.yml, .ci/run and these drift apart).
# Both need chromium (browser tests) and `make npm-tools` first; .ci/run installs them.
pr-check: validate-strict fmt-check test lint-workflows ## What a pull request's CI runs (no README check: main regenerates it).

ci: pr-check lint-readme exports ## What CI runs on main (.ci/run): pr-check, README fresh and linted, every export.

validate-strict: $(STAMP) ## Check the catalog; warnings fail too.
	$(CLI) validate --strict

readme-commit: readme ## Commit and push README.md when the data changed it (CI on main; see CONTRIBUTING.md).
	git diff --quiet -- README.md || { \
	  git -c user.name='github-actions[bot]' \
	    -c user.email='41898282+github-actions[bot]@users.noreply.github.com' \
	    commit -m 'readme: regenerate from data/' -- README.md && \
	  git push origin "HEAD:$${GITHUB_REF_NAME:-main}"; }

lint: $(STAMP) ## ruff lint and format check.
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

typecheck: $(STAMP) ## mypy --strict on the package.
	$(BIN)/mypy

# The browser tests inject axe-core from tools/npm: install the pinned tools first wherever npm
# is (as .ci/run does). Without chromium (or npm) the browser tests that cannot run are left
# out and pytest says so in one line; with CI=true they fail instead (tests/browser/conftest.py).
# Both site engines are tested: the browser tests (axe in both schemes at 390 and 1280 px among
# them) run on the real catalog built by MkDocs and by Zensical (DDL_ENGINES=mkdocs narrows them),
# and tests/test_engines_agree.py compares the two builds (pages, ids, links, files).
NPM := $(shell command -v npm 2>/dev/null)

unit: $(STAMP) $(if $(NPM),$(NPM_STAMP)) ## The pytest suite (browser and axe tests where chromium is).
	@$(if $(NPM),,echo "npm not found: the accessibility (axe) tests will not run; install Node.js and npm to run them")
	$(BIN)/pytest -q

serve: $(STAMP) ## Preview the website with live reload on http://127.0.0.1:8000/ddl-catalog/ (watches data/).
	$(CLI) site --serve $(if $(ENGINE),--engine $(ENGINE))

lock: $(STAMP) ## Resolve the newest releases into requirements/dev.txt (hashes, every platform).
	$(BIN)/uv pip compile pyproject.toml requirements/tools.in --extra dev --upgrade \
	  --generate-hashes --universal --python-version 3.11 --quiet -o $(LOCK)

# Early warning: the whole suite against the newest release of every Python dependency,
# unlocked, in a throw-away environment (build/latest-venv), so that a new release that breaks
# us fails this (weekly) target rather than every pull request after the next lock bump. The
# pinned npm tools stay as locked (tools/npm/package-lock.json).
LATEST := build/latest-venv
test-latest: $(if $(NPM),$(NPM_STAMP)) ## The test suite with the newest (unlocked) release of every Python dependency.
	rm -rf $(LATEST)
	$(PYTHON) -m venv $(LATEST)
	$(LATEST)/bin/python -m pip install --quiet --upgrade pip
	$(LATEST)/bin/python -m pip install --quiet --upgrade --upgrade-strategy eager -e '.[dev]'
	$(LATEST)/bin/python -m pip freeze --exclude-editable > build/latest-freeze.txt
	@echo "newest releases, as installed: build/latest-freeze.txt"
	DDL_CATALOG_UNLOCKED=1 PATH="$(CURDIR)/$(LATEST)/bin:$$PATH" $(LATEST)/bin/pytest -q -p no:cacheprovider

bench: $(STAMP) ## Run the benchmarks and print their tables.
	$(BIN)/python benchmarks/run.py

lighthouse: $(STAMP) $(NPM_STAMP) ## Lighthouse (mobile, gzip) per page type and engine, beside its docs page: build/lighthouse.md.
	$(BIN)/python benchmarks/lighthouse.py $(if $(ENGINE),--engines $(ENGINE))

# Lighthouse on a copy of the catalog grown to SIZES entries (variants of the real entries), each
# page type beside the docs page of the same build, for each ENGINE: build/site-scale/table.md.
# Minutes per size and engine.
SIZES ?= 500,2000
RUNS  ?= 1
bench-site: $(STAMP) $(NPM_STAMP) ## Lighthouse per page type at SIZES entries beside the docs page (SIZES=500,2000 RUNS=1 ENGINE=).
	$(BIN)/python benchmarks/bench_site_scale.py --sizes $(SIZES) --runs $(RUNS) $(if $(ENGINE),--engines $(ENGINE))

clean: ## Remove build outputs and caches (keeps .venv).
	rm -rf site build .pytest_cache .mypy_cache .ruff_cache
	find . -name __pycache__ -type d -prune -not -path './.venv/*' -exec rm -rf {} +
