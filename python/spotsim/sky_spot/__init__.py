"""A stand-in for the `sky_spot` package of the Can't Be Late authors' simulator (Wu et al., NSDI'24), written
from its documented strategy interface only: enough for a strategy file to import and run inside spotsim's Can't
Be Late compatibility mode (docs/plugins.md#cant-be-late-strategy-files). It is placed in sys.modules only while
spotsim.strategy_files loads such a file; the simulation itself is spotsim's."""
