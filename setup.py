"""Build configuration that pyproject.toml cannot say: two resource folders at the top of the
repository (``grammar/``, ``knowledge_base/``) are installed inside the packages, as
``pyopl.grammar`` and ``syntagm.knowledge_base``. Everything else is in pyproject.toml."""
from setuptools import find_packages, setup

RESOURCE_PACKAGES = {"pyopl.grammar": "grammar", "syntagm.knowledge_base": "knowledge_base"}

setup(
    packages=find_packages(include=["pyopl", "pyopl.*", "syntagm", "syntagm.*"]) + sorted(RESOURCE_PACKAGES),
    package_dir=RESOURCE_PACKAGES,
)
