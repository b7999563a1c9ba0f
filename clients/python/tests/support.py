"""Shared by the test modules: the package on sys.path and the running server from the env."""

from __future__ import annotations

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
# `python3 -m unittest discover clients/python/tests` works without PYTHONPATH or an install.
sys.path.insert(0, os.path.dirname(HERE))

URL = os.environ.get("RAAS_URL", "")
TOKEN = os.environ.get("RAAS_TOKEN") or None
ADMIN_TOKEN = os.environ.get("RAAS_ADMIN_TOKEN") or None

#: Module-level decorator for suites that need a running server (skipped, loudly, without one).
needs_server = unittest.skipUnless(URL, "set RAAS_URL (and RAAS_TOKEN) to a running RaaS server")
