/* What crowd.c needs of a sector field (sector_field.h) to prepare the tiles a crowd step
 * reads: the map size, and building tiles for a batch of cells (on threads) without evicting a
 * tile that the same batch already used. Not installed. */
#ifndef TILENAV_SECTOR_FIELD_INTERNAL_H
#define TILENAV_SECTOR_FIELD_INTERNAL_H

#include "tilenav/sector_field.h"

#include <stdbool.h>
#include <stdint.h>

/* The map size of the field's hierarchy. */
void tn__sector_field_size(const tn_sector_field *f, int32_t *w, int32_t *h);
/* Start a batch: checks the field is usable (TN_E_STATE, TN_E_MAP_CHANGED) and gives the
 * batch's mark. */
tn_status tn__sector_field_begin(tn_sector_field *f, uint64_t *since);
/* Keep the tile of cell c (inside the map): when it is not kept, it joins the batch that
 * tn__sector_field_flush() builds (`*built`); TN_E_FULL when that would drop a tile used since
 * `since`; TN_E_NOMEM. */
tn_status tn__sector_field_touch(tn_sector_field *f, tn_cell c, uint64_t since, bool *built);
/* Build the batch's tiles (on the field's parallel_for when it has one). Always call it after
 * touching, whatever the touches returned: their slots are taken. */
void tn__sector_field_flush(tn_sector_field *f);

#endif
