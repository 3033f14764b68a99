/* The words the reports and JSON documents use for the verdict enums of results.h. */
#include "results/results.h"

const char *results_confidence_name(enum confidence c)
{
	switch (c) {
	case CONF_LOW: return "low";
	case CONF_MEDIUM: return "medium";
	case CONF_HIGH: return "high";
	case CONF_NONE: break;
	}
	return "none";
}

const char *results_collapse_name(enum collapse c)
{
	switch (c) {
	case RUN_HOLDS: return "holds";
	case RUN_COLLAPSED: return "collapsed";
	case RUN_UNCLEAR: break;
	}
	return "unclear";
}
