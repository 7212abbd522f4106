/* Built-in scene data shared by the viewer and its pixel checker (tests/viewer/check_viewer.c):
 * the maze, the screen layout and the colours the checker looks for. Plain C, no SDL. */
#ifndef TN_VIEWER_SCENES_H
#define TN_VIEWER_SCENES_H

#include <stdint.h>

/* Canvas (and window) size in pixels; the bottom VW_BAR_H rows hold the status bar. */
#define VW_CANVAS_W 960
#define VW_CANVAS_H 640
#define VW_BAR_H 22

/* The maze of the "maze" mode: a perfect maze ('#' wall, '.' floor), so that the shortest path
 * between two floor cells is unique and the checker can predict every cell of it. */
#define VW_MAZE_W 25
#define VW_MAZE_H 15
#define VW_MAZE_START_X 1
#define VW_MAZE_START_Y 1
static const char *const vw_maze_rows[VW_MAZE_H] = {
    "#########################", "#.#...#.......#.........#", "#.###.#.#.#####.#######.#",
    "#...#...#...........#...#", "###.#.#############.#.#.#", "#.#.#.#...#.......#.#.#.#",
    "#.#.###.#.#.#####.#.#.#.#", "#.#.....#...#.....#.#.#.#", "#.###########.#######.#.#",
    "#.....#.....#...#.....#.#", "#.###.#.###.###.#.#####.#", "#.#...#...#...#...#.....#",
    "#.#######.###.#####.#####", "#...........#...........#", "#########################",
};

/* Colours (RGB, drawn opaque) that the checker recognises. */
#define VW_COL_PATH 0xF0C020u   /* the maze's planned path (inset squares) */
#define VW_COL_WALKER 0xE03030u /* the maze character */
#define VW_COL_PLAYER 0x2060F0u /* the keyboard car */
#define VW_COL_AI_CAR 0xF08020u /* the AI car */
#define VW_COL_CUE 0xFFFFFFu    /* marble 0, the one the test throws */

#endif
