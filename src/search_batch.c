/* Batches of path queries over several search contexts (search.h, tn_search_batch). */
#include "internal.h"
#include "tilenav/search.h"

#include <stddef.h>
#include <stdint.h>

typedef struct batch {
    tn_search *const *contexts;
    int32_t ncontexts;
    const tn_map *map;
    const tn_query *query;
    tn_batch_item *items;
    int32_t count;
    tn_cell *paths;
    int32_t path_cap;
} batch;

/* Contexts [begin, end): context k runs queries k, k + n, k + 2n, ... in order. */
static void run_contexts(void *ctx, int32_t begin, int32_t end)
{
    const batch *b = ctx;
    for (int32_t k = begin; k < end; k++) {
        tn_search *s = b->contexts[k];
        for (int32_t i = k; i < b->count; i += b->ncontexts) {
            tn_batch_item *it = &b->items[i];
            tn_cell *out = b->paths ? b->paths + (size_t)i * (size_t)b->path_cap : NULL;
            it->status = tn_search_path(s, b->map, it->start, it->goal, b->query, out, b->path_cap,
                                        &it->result);
        }
    }
}

tn_status tn_search_batch(tn_search *const *contexts, int32_t ncontexts, const tn_map *map,
                          const tn_query *query, tn_batch_item *items, int32_t count,
                          tn_cell *paths, int32_t path_cap, tn_parallel_for parallel_for,
                          void *parallel_user)
{
    if (!contexts || ncontexts < 1 || !map || !items || count < 0 || path_cap < 0 ||
        (!paths && path_cap > 0))
        return TN_E_INVALID_ARG;
    if ((uint64_t)path_cap * (uint64_t)count > (uint64_t)(SIZE_MAX / sizeof(tn_cell)))
        return TN_E_INVALID_ARG;
    for (int32_t k = 0; k < ncontexts; k++)
        if (!contexts[k])
            return TN_E_INVALID_ARG;
    if (count == 0)
        return TN_OK;
    batch b = {contexts, ncontexts > count ? count : ncontexts, map, query, items, count, paths,
               path_cap};
    if (parallel_for && b.ncontexts > 1)
        parallel_for(run_contexts, &b, b.ncontexts, parallel_user);
    else
        run_contexts(&b, 0, b.ncontexts);
    return TN_OK;
}
