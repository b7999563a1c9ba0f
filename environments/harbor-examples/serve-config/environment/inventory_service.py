"""A tiny inventory service: GET /items (with the X-Api-Key header) lists the items as JSON."""

import argparse
import configparser
import csv
import http.server
import json
import logging
import os
import sys

LEVELS = {"debug", "info", "warning", "error"}


def load(path):
    """Returns the settings of a config file, or raises ValueError saying what is wrong."""
    parser = configparser.ConfigParser()
    if not parser.read(path):
        raise ValueError(f"cannot read {path}")
    for section in ("server", "data", "auth"):
        if not parser.has_section(section):
            raise ValueError(f"missing section [{section}]")
    host = parser.get("server", "host", fallback="")
    if host not in ("127.0.0.1", "localhost"):
        raise ValueError("[server] host must be 127.0.0.1 or localhost")
    try:
        port = parser.getint("server", "port")
    except (ValueError, configparser.NoOptionError):
        raise ValueError("[server] port must be an integer") from None
    if not 1024 <= port <= 65535:
        raise ValueError("[server] port must be between 1024 and 65535")
    level = parser.get("server", "log_level", fallback="info")
    if level not in LEVELS:
        raise ValueError(f"[server] log_level must be one of {sorted(LEVELS)}")
    items = parser.get("data", "items_csv", fallback="")
    if not os.path.isabs(items) or not os.path.isfile(items):
        raise ValueError("[data] items_csv must be the absolute path of an existing file")
    key = parser.get("auth", "api_key", fallback="")
    if len(key) < 8:
        raise ValueError("[auth] api_key must have at least 8 characters")
    return {"host": host, "port": port, "log_level": level, "items_csv": items, "api_key": key}


def serve(settings):
    with open(settings["items_csv"], newline="") as handle:
        items = list(csv.DictReader(handle))
    logging.basicConfig(level=settings["log_level"].upper())

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            if self.headers.get("X-Api-Key") != settings["api_key"]:
                self.send_response(401)
                self.end_headers()
                return
            if self.path != "/items":
                self.send_response(404)
                self.end_headers()
                return
            body = json.dumps({"items": items}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            logging.info(*args)

    http.server.HTTPServer((settings["host"], settings["port"]), Handler).serve_forever()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--config", required=True)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    try:
        settings = load(args.config)
    except ValueError as error:
        print(f"invalid config: {error}", file=sys.stderr)
        return 2
    if args.check:
        print("config OK")
        return 0
    serve(settings)
    return 0


if __name__ == "__main__":
    sys.exit(main())
