/* Report partners for engines whose race decision does not name an earlier
 * access (lockset and hybrid state machines): per byte, remember enough
 * recent accesses that, for any accessing thread t, one of them is "the
 * latest access by another thread" and one "the latest write by another
 * thread". Used for the "Previous ..." half of reports only. */
#ifndef GOLDI_PARTNER_H
#define GOLDI_PARTNER_H

#include "../../event/event.h"

/* One remembered access. origin 0 = none. */
struct goldi_acc_ref {
    goldi_origin_t origin;
    goldi_tid_t tid;
    bool write;
};

/* Invariant: last is the latest access, other the latest one by a thread
 * other than last.tid; lastw/otherw the same over writes. */
struct goldi_partners {
    struct goldi_acc_ref last, other, lastw, otherw;
};

GOLDI_INLINE void goldi_partners_note_one(struct goldi_acc_ref *last, struct goldi_acc_ref *other,
                                          const struct goldi_acc_ref *me) {
    if (last->origin && last->tid != me->tid)
        *other = *last;
    *last = *me;
}

/* Records access me (after it was checked). */
GOLDI_INLINE void goldi_partners_note(struct goldi_partners *p, const struct goldi_acc_ref *me) {
    goldi_partners_note_one(&p->last, &p->other, me);
    if (me->write)
        goldi_partners_note_one(&p->lastw, &p->otherw, me);
}

/* The partner to name for an access by t: for a read, the latest write by
 * another thread if there is one; else the latest access by another thread;
 * origin 0 if none. */
GOLDI_INLINE struct goldi_acc_ref goldi_partners_pick(const struct goldi_partners *p, goldi_tid_t t,
                                                      bool write) {
    struct goldi_acc_ref none = { 0, GOLDI_TID_NONE, false };
    const struct goldi_acc_ref *w = p->lastw.tid != t ? &p->lastw : &p->otherw;
    const struct goldi_acc_ref *a = p->last.tid != t ? &p->last : &p->other;
    if (!write && w->origin && w->tid != t)
        return *w;
    if (a->origin && a->tid != t)
        return *a;
    return none;
}

#endif
