#!/usr/bin/env python3
"""Funding rounds of a list of companies, by website, through the v1 batch lookup
(POST /api/v1/funding/lookup, at most 100 inputs a request). Standard library only.

    DEALSIGNAL_API_KEY=ds_... python3 examples/python/lookup.py lumly.com osiqlabs.com
    DEALSIGNAL_API_KEY=ds_... python3 examples/python/lookup.py --file websites.txt

Prints one line per website, in input order, tab-separated: the website, its number of rounds,
and its latest round (type, amount, date).
"""

import argparse
import email.utils
import http.client
import json
import os
import sys
import time
import urllib.error
import urllib.request

# The lookup's limit: websites and LinkedIn pages together, per request.
INPUTS_PER_REQUEST = 100
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


def post_json(base_url, api_key, path, body):
    """POSTs JSON to a v1 endpoint; retries a 429 or 503 after Retry-After (bounded)."""
    data = json.dumps(body).encode("utf-8")
    headers = {"x-lot-api-key": api_key, "content-type": "application/json", "accept": "application/json"}
    for attempt in range(RETRIES + 1):
        request = urllib.request.Request(base_url + path, data=data, headers=headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return json.load(response)
        except urllib.error.HTTPError as error:
            text = error.read().decode("utf-8", "replace")
            wait = retry_after_seconds(error.headers.get("retry-after"))
            if wait is None:
                wait = 0.5 * 2**attempt
            if error.code in (429, 503) and attempt < RETRIES and wait <= MAX_RETRY_WAIT_SECONDS:
                time.sleep(wait)
                continue
            raise api_error(error, text) from None


class ArgumentParser(argparse.ArgumentParser):
    """Exits 1 on a usage error, as every failure (the sync script's 2 means "counts differ")."""

    def error(self, message):
        self.print_usage(sys.stderr)
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        sys.exit(1)


def describe_round(record):
    """`Series A, 5,000,000 USD, 2025-03-01` for a round as served."""
    round_type = record.get("round_type") or "unnamed round"
    amount = f"{record['funding_amount']:,} {record['currency']}"
    date_seen = record.get("date_seen")
    return f"{round_type}, {amount}, {date_seen[:10] if date_seen else 'date unknown'}"


def describe_result(result, results):
    """One output line for one lookup result (results: the whole answer, where a repeat's records are)."""
    if result["status"] == "invalid":
        return f"{result['input']}\tinvalid\t{result.get('reason') or 'nothing left once normalised'}"
    total = result["total"]
    rounds = f"{total} {'round' if total == 1 else 'rounds'}"
    # A company asked for twice is answered once: the repeat points to the result with the records.
    records = results[result["duplicate_of"]]["records"] if "duplicate_of" in result else result["records"]
    # Records come newest date_seen first, so the first one is the latest round.
    if not records:
        return f"{result['input']}\t{rounds}"
    return f"{result['input']}\t{rounds}\tlatest: {describe_round(records[0])}"


def read_websites(arguments):
    websites = list(arguments.websites)
    if arguments.file is not None:
        handle = sys.stdin if arguments.file == "-" else open(arguments.file, encoding="utf-8")
        with handle:
            # Blank lines and # comments are skipped; anything else is sent as written (the server judges it).
            websites += [line.strip() for line in handle if line.strip() and not line.strip().startswith("#")]
    return websites


def main():
    parser = ArgumentParser(description="Funding rounds of companies, by website (v1 batch lookup).")
    parser.add_argument("websites", nargs="*", help="company websites")
    parser.add_argument("--file", help="a file with one website a line (- for standard input)")
    websites = read_websites(parser.parse_args())
    if not websites:
        parser.print_usage(sys.stderr)
        return 1
    api_key = os.environ.get("DEALSIGNAL_API_KEY")
    if not api_key:
        print("Set DEALSIGNAL_API_KEY to your API key (npm start prints a demo key).", file=sys.stderr)
        return 1
    base_url = os.environ.get("DEALSIGNAL_URL", "http://127.0.0.1:3000").rstrip("/")

    for start in range(0, len(websites), INPUTS_PER_REQUEST):
        chunk = websites[start : start + INPUTS_PER_REQUEST]
        body = post_json(base_url, api_key, "/api/v1/funding/lookup", {"websites": chunk})
        results = body["response"]["data"]
        for result in results:
            print(describe_result(result, results))
    return 0


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
