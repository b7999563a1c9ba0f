import os

# Deliberately strict: a deployment must say which profile it runs.
PROFILE = os.environ["ENVKIT_PROFILE"]
