#!/usr/bin/env python3
"""A local NDJSON copy of every funding round of one country, kept in sync through the changes feed
(GET /api/v2/changes?datasets=funding, 1 credit a page). Standard library only.

    DEALSIGNAL_API_KEY=ds_... python3 examples/python/sync_funding.py --country US [--out funding-US.ndjson] [--from-now]

The copy holds one line per round, {"id": "<the feed's id>", "round": <the record as served>}; the
state file next to it (<out>.state.json) holds the country, the spellings of its name the records
use, and the feed cursor the copy is up to date with. The first run follows the feed from its start,
later runs from the stored cursor. With --from-now, the first run starts at the feed's head instead
(since=now, free): the copy then collects only the rounds created or changed from that moment. At the end the copy's count is compared with the server's total
for the country. Exit 0 when they agree, 2 when they differ, 1 on any other failure.
examples/node/sync-funding.mjs does the same with the typed client.
"""

import argparse
import email.utils
import http.client
import json
import os
import re
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

RETRIES = 3
MAX_RETRY_WAIT_SECONDS = 30.0


class ApiError(Exception):
    def __init__(self, status, message, request_id=None, body=""):
        super().__init__(message)
        self.status = status
        self.request_id = request_id
        # The answer as the API sent it (its code, param and details), printed for the user to act on.
        self.body = body


def api_error(error, text):
    """An ApiError from an HTTP error and its body; any body will do (a proxy's HTML page, say)."""
    try:
        body = json.loads(text)
    except ValueError:
        body = None
    message = None
    if isinstance(body, dict):
        # v1 answers {"code", "message"}; v2 {"success": false, "error": ...}, the error a message or an object.
        detail = body.get("error")
        message = (detail.get("message") if isinstance(detail, dict) else detail) or body.get("message")
    message = message if isinstance(message, str) and message else (text.strip()[:200] or str(error.reason))
    return ApiError(error.code, message, error.headers.get("x-request-id"), text.strip())


def retry_after_seconds(value):
    """Seconds from a Retry-After header (delta-seconds or an HTTP date), or None."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        return max(0.0, email.utils.parsedate_to_datetime(value).timestamp() - time.time())
    except (TypeError, ValueError):
        return None


class Client:
    """GETs with the key in each family's header; retries a 429 or 503 after Retry-After (bounded)."""

    def __init__(self, base_url, api_key):
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key

    def get(self, family, path, query):
        query = {name: value for name, value in query.items() if value is not None}
        url = f"{self.base_url}{path}?{urllib.parse.urlencode(query)}"
        auth = {"x-lot-api-key": self.api_key} if family == "v1" else {"authorization": f"Bearer {self.api_key}"}
        for attempt in range(RETRIES + 1):
            request = urllib.request.Request(url, headers={"accept": "application/json", **auth})
            try:
                with urllib.request.urlopen(request, timeout=60) as response:
                    return json.load(response), response.headers
            except urllib.error.HTTPError as error:
                text = error.read().decode("utf-8", "replace")
                wait = retry_after_seconds(error.headers.get("retry-after"))
                if wait is None:
                    wait = 0.5 * 2**attempt
                if error.code in (429, 503) and attempt < RETRIES and wait <= MAX_RETRY_WAIT_SECONDS:
                    time.sleep(wait)
                    continue
                raise api_error(error, text) from None

    def funding_page(self, country, page=1):
        """One v1 page of the country's rounds: (records, total, has_next_page). Free of credits."""
        body, headers = self.get("v1", "/api/v1/funding", {"country": country, "page": page})
        has_next_page = 'rel="next"' in (headers.get("link") or "")
        return body["response"]["data"], int(headers["x-total-count"]), has_next_page

    def changes(self, since, limit):
        """Pages of funding changes from since (the feed's start when None) until caught up."""
        while True:
            body, _ = self.get("v2", "/api/v2/changes", {"since": since, "datasets": "funding", "limit": limit})
            yield body
            if not body["pagination"]["hasNextPage"]:
                return
            since = body["pagination"]["nextCursor"]


# ---------------------------------------------------------------- files


def write_atomically(path, text):
    """Replaces the file in one step: written and flushed beside it, then renamed over it."""
    directory = os.path.dirname(os.path.abspath(path))
    descriptor, temporary = tempfile.mkstemp(dir=directory, prefix=os.path.basename(path) + ".", suffix=".tmp")
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.remove(temporary)
        raise


def load_copy(path):
    """The copy: feed id -> round; None when there is no file."""
    if not os.path.exists(path):
        return None
    copy = {}
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            entry = json.loads(line)
            if not isinstance(entry.get("id"), str) or not isinstance(entry.get("round"), dict):
                raise ValueError(f"{path}:{number}: not {{id, round}}")
            copy[entry["id"]] = entry["round"]
    return copy


def copy_text(copy):
    # Compact JSON, one round a line in id order, as the Node script writes it.
    return "".join(
        json.dumps({"id": key, "round": copy[key]}, ensure_ascii=False, separators=(",", ":")) + "\n" for key in sorted(copy)
    )


def save(out, state_path, copy, state, copy_changed):
    """Saves a page's work: the copy first (when it changed), then the state with the page's cursor.
    A crash between the two renames leaves the copy ahead of its cursor, never behind: the next run
    applies that page again, and applying a change twice gives the same copy (upserts and removals)."""
    if copy_changed:
        write_atomically(out, copy_text(copy))
    write_atomically(state_path, json.dumps(state, indent=2, ensure_ascii=False) + "\n")


# ---------------------------------------------------------------- the country


def spelling_of(value):
    return re.sub(r"\s+", " ", value.strip().lower())


def learn_spellings(client, country):
    """The ways the records write the country (company_info.hq_country), learned from the server: the
    v1 list's country filter knows codes, names and aliases, so the countries of its first pages'
    records, plus the argument itself, are the spellings to match."""
    spellings = {spelling_of(country)}
    for page in (1, 2):
        records, _, has_next_page = client.funding_page(country, page)
        for record in records:
            hq_country = (record.get("company_info") or {}).get("hq_country")
            if isinstance(hq_country, str):
                spellings.add(spelling_of(hq_country))
        if not has_next_page:
            break
    return sorted(spellings)


# ---------------------------------------------------------------- applying the feed


def apply(copy, change, spellings):
    """Applies one change to the copy; True when the copy changed."""
    if change["op"] == "deleted":
        return copy.pop(change["id"], None) is not None
    record = change["record"]
    # A record deleted since: its deletion comes later in the feed.
    if record is None:
        return False
    hq_country = (record.get("company_info") or {}).get("hq_country")
    if isinstance(hq_country, str) and spelling_of(hq_country) in spellings:
        copy[change["id"]] = record
        return True
    # Outside the country (perhaps a round that moved away): not, or no longer, in the copy.
    return copy.pop(change["id"], None) is not None


# ---------------------------------------------------------------- the command


class ArgumentParser(argparse.ArgumentParser):
    """Exits 1 on a usage error (argparse's 2 is this script's "counts differ")."""

    def error(self, message):
        self.print_usage(sys.stderr)
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        sys.exit(1)


def page_size(text):
    if not text.isdigit() or not 1 <= int(text) <= 1000:
        raise argparse.ArgumentTypeError("must be an integer from 1 to 1000")
    return int(text)


def plural(count, word):
    return f"{count} {word if count == 1 else word + 's'}"


def main():
    parser = ArgumentParser(description="Keep a local NDJSON copy of one country's funding rounds in sync.")
    parser.add_argument("--country", required=True, help="ISO 3166 alpha-2 code or English name, as the v1 filter takes it")
    parser.add_argument("--out", help="the copy (default funding-COUNTRY.ndjson)")
    parser.add_argument("--limit", type=page_size, default=1000, help="changes a page, 1..1000 (default 1000)")
    parser.add_argument("--from-now", action="store_true", help="first run: follow the feed from its head (free), not its start")
    arguments = parser.parse_args()
    country = arguments.country.strip()
    out = arguments.out or "funding-" + re.sub(r"[^A-Za-z0-9]+", "-", country) + ".ndjson"
    state_path = out + ".state.json"
    api_key = os.environ.get("DEALSIGNAL_API_KEY")
    if not api_key:
        print("Set DEALSIGNAL_API_KEY to your API key (npm start prints a demo key).", file=sys.stderr)
        return 1
    client = Client(os.environ.get("DEALSIGNAL_URL", "http://127.0.0.1:3000"), api_key)

    state = None
    if os.path.exists(state_path):
        with open(state_path, encoding="utf-8") as handle:
            state = json.load(handle)
    if state is not None and spelling_of(state["country"]) != spelling_of(country):
        other = state["country"]
        print(f"{state_path} is the state of a copy of {other}: pass --country {other}, or another --out", file=sys.stderr)
        return 1
    copy = {}
    if state is None:
        state = {"country": country, "spellings": learn_spellings(client, country), "cursor": None}
        quoted = " or ".join(f'"{spelling}"' for spelling in state["spellings"])
        if arguments.from_now:
            # The head's cursor, free: nothing before it is read.
            body, _ = client.get("v2", "/api/v2/changes", {"since": "now"})
            state["cursor"] = body["pagination"]["nextCursor"]
            save(out, state_path, copy, state, True)
        start = "now" if arguments.from_now else "its start"
        print(f"First run: following the feed from {start}; rounds of {country} have hq_country {quoted} (any case)")
    else:
        copy = load_copy(out)
        if copy is None:
            print(f"{out} is missing: following the feed from its start again")
            copy = {}
            state["cursor"] = None
    spellings = set(state["spellings"])

    applied = pages = credits = 0
    restarted = False
    while True:
        try:
            for page in client.changes(state["cursor"], arguments.limit):
                pages += 1
                credits += page["meta"]["creditsUsed"]
                copy_changed = False
                for change in page["data"]:
                    if apply(copy, change, spellings):
                        copy_changed = True
                    applied += 1
                state["cursor"] = page["pagination"]["nextCursor"]
                save(out, state_path, copy, state, copy_changed)
            break
        except ApiError as error:
            if error.status != 410 or restarted:
                raise
            # The changes after the stored cursor are no longer in the change log: start over.
            print("410: the stored cursor is older than the change log's retention; starting over from the feed's start, empty.")
            restarted = True
            copy = {}
            state["cursor"] = None
            save(out, state_path, copy, state, True)

    print(
        f"Synced {state['country']}: {plural(applied, 'change')} applied, {plural(pages, 'page')}, "
        f"{plural(credits, 'credit')} spent, {len(copy)} rounds in the copy ({out})"
    )

    # v1 is free of credits, and X-Total-Count is exact.
    _, total, _ = client.funding_page(state["country"])
    print(f"Rounds of {state['country']}: {len(copy)} in the copy, {total} on the server")
    if total == len(copy):
        return 0
    print(
        "They differ. This can happen when:\n"
        "- the change log no longer holds the oldest rounds: it keeps CHANGE_LOG_RETENTION_DAYS of changes (7 by default),\n"
        "  so a copy built from the feed lacks the rounds not changed since;\n"
        f"- a record spells the country in a way not learned (known: {', '.join(state['spellings'])}): add it to \"spellings\"\n"
        f"  in {state_path} and set \"cursor\" to null to replay the feed;\n"
        "- the data changed after this run caught up: run again."
    )
    return 2


if __name__ == "__main__":
    try:
        sys.exit(main())
    except ApiError as error:
        request_id = f" (request {error.request_id})" if error.request_id else ""
        print(f"dealsignal answered {error.status}: {error}{request_id}", file=sys.stderr)
        if error.body:
            print(error.body, file=sys.stderr)
        sys.exit(1)
    except (OSError, http.client.HTTPException) as error:
        # URLError (refused, unknown host), a timeout or a connection cut mid-answer: no traceback either.
        print(f"dealsignal did not answer: {getattr(error, 'reason', None) or error}", file=sys.stderr)
        sys.exit(1)
