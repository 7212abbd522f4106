/// @file moves.h
/// @brief The movement rules shared by paths, fields and agents: which neighbours a cell has
/// (4 or 8, and when a diagonal step may pass a blocked corner) and what a step costs.
///
/// One definition serves every grid algorithm, so a flow field and an A* search on the same
/// map with the same ::tn_moves agree on every distance.
///
/// The cost of one step into cell c is `base * terrain(c) + extra(c)`, where base is the
/// straight or diagonal cost below, terrain(c) is tn_map_cost() of the entered cell and
/// extra(c) >= 0 comes from an optional caller-supplied extra-cost layer (influence maps).
#ifndef TILENAV_MOVES_H
#define TILENAV_MOVES_H

#include "base.h"

#ifdef __cplusplus
extern "C" {
#endif

/// When a diagonal step from (x, y) to (x+dx, y+dy) is allowed; the two cells it passes are the
/// orthogonal neighbours (x+dx, y) and (x, y+dy). The target cell must always be passable.
typedef enum tn_diagonal {
    TN_DIAGONAL_NO_CUT = 0, ///< both orthogonal cells free (default; the Moving AI rule)
    TN_DIAGONAL_NEVER = 1,  ///< no diagonal steps: 4-connected
    TN_DIAGONAL_ONE = 2,    ///< at most one of the two blocked (corner cutting)
    TN_DIAGONAL_ALWAYS = 3, ///< even between two blocked cells (squeezing)
} tn_diagonal;

/// Base cost of a step, before the terrain cost of the entered cell multiplies it.
typedef enum tn_step_costs {
    TN_COSTS_EXACT = 0, ///< straight 1, diagonal sqrt(2) (default)
    TN_COSTS_10_14 = 1, ///< integers: straight 10, diagonal 14
} tn_step_costs;

/// The 8 directions, clockwise on screen starting at "right" (the one order every header uses:
/// fields, goal bounds); TN_DIR_NONE = no direction (for a field: blocked, unreachable, or a
/// goal cell).
typedef enum tn_dir {
    TN_DIR_E = 0,
    TN_DIR_SE = 1,
    TN_DIR_S = 2,
    TN_DIR_SW = 3,
    TN_DIR_W = 4,
    TN_DIR_NW = 5,
    TN_DIR_N = 6,
    TN_DIR_NE = 7,
    TN_DIR_NONE = -1,
} tn_dir;

/// Step of a direction: x offset (dir 0..7; 0 for TN_DIR_NONE).
TN_API int32_t tn_dir_dx(int32_t dir);
/// Step of a direction: y offset (dir 0..7; 0 for TN_DIR_NONE).
TN_API int32_t tn_dir_dy(int32_t dir);

/// Movement rules. Zero-initialised means 8-connected, no corner cutting, exact costs.
typedef struct tn_moves {
    tn_diagonal diagonal;
    tn_step_costs costs;
} tn_moves;

#define TN_SQRT2 1.41421356237309504880

/// Is a diagonal step allowed, given whether each of the two orthogonal cells is free?
static inline bool tn_moves_diagonal_ok(tn_diagonal d, bool free_a, bool free_b)
{
    switch (d) {
    case TN_DIAGONAL_NO_CUT: return free_a && free_b;
    case TN_DIAGONAL_ONE: return free_a || free_b;
    case TN_DIAGONAL_ALWAYS: return true;
    case TN_DIAGONAL_NEVER: return false;
    }
    return false;
}

/// Base cost of a straight step.
static inline double tn_moves_straight(const tn_moves *m)
{
    return m->costs == TN_COSTS_10_14 ? 10.0 : 1.0;
}

/// Base cost of a diagonal step.
static inline double tn_moves_diagonal(const tn_moves *m)
{
    return m->costs == TN_COSTS_10_14 ? 14.0 : TN_SQRT2;
}

/// Are the rules valid (known enum values)?
static inline bool tn_moves_valid(const tn_moves *m)
{
    /* switches, not casts or compares: warning-free under C's -Wconversion and C++'s
     * -Wold-style-cast, whatever type the compiler gives the enums */
    if (!m)
        return false;
    switch (m->diagonal) {
    case TN_DIAGONAL_NO_CUT:
    case TN_DIAGONAL_NEVER:
    case TN_DIAGONAL_ONE:
    case TN_DIAGONAL_ALWAYS: break;
    default: return false;
    }
    switch (m->costs) {
    case TN_COSTS_EXACT:
    case TN_COSTS_10_14: return true;
    default: return false;
    }
}

#ifdef __cplusplus
}
#endif

#endif
