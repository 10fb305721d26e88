// See entry.c. Nothing to import: the fuzzers only link this target.
#pragma once
