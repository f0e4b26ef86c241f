"""Test-wide settings.

Property tests run derandomized by default, so that the suite gives the same verdict on every
run (CI included).  To search for new failing examples, run
``python -m pytest --hypothesis-profile=explore`` and pin whatever it finds as a plain test.
"""
from hypothesis import settings

settings.register_profile("default-derandomized", derandomize=True)
settings.register_profile("explore", derandomize=False, max_examples=1000)
settings.load_profile("default-derandomized")
