# The test environment must provide this plugin; this fixture's environment deliberately does not.
import raas_missing_dependency  # noqa: F401
