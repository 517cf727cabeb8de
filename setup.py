"""The crisis check's compiled parts (``core/crisis/_fast.pyx``: the tables' fast path; ``_score.pyx``: the
model's scorer), compiled through Cython; the rest of the project is configured in pyproject.toml. Optional: an install without a C compiler warns and runs on the
pure-Python path, with the same verdicts (slower on long never-seen texts)."""

from setuptools import Extension, setup

setup(ext_modules=[Extension("core.crisis._fast", ["core/crisis/_fast.pyx"], optional=True),
                   Extension("core.crisis._score", ["core/crisis/_score.pyx"], optional=True)])
