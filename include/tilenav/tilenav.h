/// @file tilenav.h
/// @brief Umbrella header: everything in the core library.
///
/// tilenav moves things around 2D tile maps: tile maps and tile collision, shortest paths,
/// flow fields, steering agents and broad-phase collision. The loaders (Moving AI, Tiled JSON
/// and TMX, ASCII) live in the separate `tilenav_io` library, declared in tilenav/io.h. The
/// headers point to the guides in docs/ (installed in <prefix>/share/doc/tilenav).
#ifndef TILENAV_TILENAV_H
#define TILENAV_TILENAV_H

#include "base.h"
#include "broadphase.h"
#include "clearance.h"
#include "contact.h"
#include "crowd.h"
#include "dirmap.h"
#include "field.h"
#include "follow.h"
#include "formation.h"
#include "goal_bounds.h"
#include "hierarchy.h"
#include "influence.h"
#include "map.h"
#include "moves.h"
#include "path.h"
#include "regions.h"
#include "rng.h"
#include "search.h"
#include "sector_field.h"
#include "steer.h"
#include "tile_collision.h"

#endif
