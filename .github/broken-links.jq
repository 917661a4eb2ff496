# build/links.json (ddl-catalog check-links --format json) -> the body of the broken-links issue.
def esc: tostring | gsub("[|]"; "\\|") | gsub("\n"; " ");
def rows: [.[] | select(.outcome == "broken" or .outcome == "error")];
"# Broken links",
"",
"Found by the weekly `ddl-catalog check-links` run (`.github/workflows/maintenance.yml`). For each",
"one, fix the entry's URL, or set `status: dead` with an `archive_url`, then close this issue",
"when the list is empty. Run `make links-report` to check again locally.",
"",
(if (rows | length) == 0 then "No broken links this week."
 else
   "| outcome | status | URL | found in | detail |",
   "|---|---|---|---|---|",
   (rows[] | "| \(.outcome) | \(.status // "-") | <\(.url | esc)> | \(.sources | map(esc) | join("<br>")) | \(.error // "" | esc) |")
 end)
