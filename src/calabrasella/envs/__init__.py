"""Environments for other tools' interfaces, each behind its own extra.

- :mod:`calabrasella.envs.pettingzoo`: a PettingZoo AEC environment
  (``pip install 'calabrasella[pettingzoo]'``);
- :mod:`calabrasella.envs.openspiel`: OpenSpiel games ``python_calabrasella``
  and ``python_calabresella`` (``pip install 'calabrasella[openspiel]'``).

Importing this package imports neither tool; each module imports its own.
"""
