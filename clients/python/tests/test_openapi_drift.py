"""The client cannot drift from the server: every operation it calls and every dataclass it reads
or sends is checked against the running server's /openapi.json."""

from __future__ import annotations

import dataclasses
import unittest

import support
from openapi_schema import OpenApiDocument, check_dataclass, check_operation

from raas_client import Run, operations
from raas_client.wire import field_types


@support.needs_server
class OpenApiDriftTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.doc = OpenApiDocument.fetch(support.URL)

    def test_every_operation_the_client_uses_matches_the_document(self):
        self.assertGreater(len(operations.ALL), 15)
        for op in operations.ALL:
            with self.subTest(op.operation_id):
                self.assertEqual(check_operation(self.doc, op), [])

    def test_the_check_catches_a_missing_required_field_and_an_unknown_one(self):
        fields = [(name, hint) for name, hint in field_types(Run).items() if name != "step_count"]
        drifted = dataclasses.make_dataclass("DriftedRun", fields + [("colour", str)])
        schema = self.doc.resolve({"$ref": "#/components/schemas/Run"})
        problems = check_dataclass(self.doc, drifted, schema, "Run", "response")
        self.assertEqual(len(problems), 2, problems)
        self.assertIn("colour", problems[0])
        self.assertIn("stepCount", problems[1])

    def test_the_check_catches_a_nullable_property_typed_as_not_null(self):
        fields = [(name, str if name == "model" else hint) for name, hint in field_types(Run).items()]
        drifted = dataclasses.make_dataclass("DriftedRun", fields)
        schema = self.doc.resolve({"$ref": "#/components/schemas/Run"})
        problems = check_dataclass(self.doc, drifted, schema, "Run", "response")
        expected = "Run.model: the server may send null, the client's type does not allow it"
        self.assertEqual(problems, [expected])


if __name__ == "__main__":
    unittest.main()
