"""Settings of the whole suite."""

from hypothesis import HealthCheck, settings

# No test is timed (speed goals are checked by the benchmarks in bench/): a property test
# must not fail because the machine running it is busy.
settings.register_profile("suite", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("suite")
