/* A small bank: a pool of teller threads applies a stream of transfers that
 * the main thread queues. Accounts are guarded by their own mutex and the
 * queue by its lock and condition variables, but the end-of-shift path that
 * publishes each teller's tally into the bank-wide statistics forgot
 * stats_lock.
 *
 * The race exists in every interleaving, not just unlucky ones: each teller
 * updates `stats` as its very last action, after its last lock release, so
 * no lock, condition variable or join orders one teller's update before
 * another's. Built with `goldi cc` it reports a data race on the global
 * 'stats' and exits with status 66. The fix is bank_ok.c. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define N_ACCOUNTS 16
#define N_TELLERS 4
#define N_TRANSFERS 4000
#define QUEUE_CAP 64
#define INITIAL_BALANCE 1000

struct account {
    pthread_mutex_t lock;
    long balance; /* cents; guarded by lock */
};

struct transfer {
    int from, to;
    long amount;
};

/* Bounded FIFO between the main thread (producer) and the tellers. */
static struct {
    pthread_mutex_t lock;
    pthread_cond_t not_empty, not_full;
    struct transfer slot[QUEUE_CAP];
    int head, count;
    int closed; /* no more transfers will be queued */
} queue = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, PTHREAD_COND_INITIALIZER,
           {{0, 0, 0}}, 0, 0, 0};

/* Bank-wide statistics; meant to be guarded by stats_lock. */
static pthread_mutex_t stats_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
    long transfers; /* applied transfers */
    long rejected;  /* transfers refused for lack of funds */
    long volume;    /* money moved, in cents */
} stats;

static struct account *accounts;

static void queue_push(struct transfer t)
{
    pthread_mutex_lock(&queue.lock);
    while (queue.count == QUEUE_CAP)
        pthread_cond_wait(&queue.not_full, &queue.lock);
    queue.slot[(queue.head + queue.count) % QUEUE_CAP] = t;
    queue.count++;
    pthread_cond_signal(&queue.not_empty);
    pthread_mutex_unlock(&queue.lock);
}

static void queue_close(void)
{
    pthread_mutex_lock(&queue.lock);
    queue.closed = 1;
    pthread_cond_broadcast(&queue.not_empty);
    pthread_mutex_unlock(&queue.lock);
}

/* Returns 0 once the queue is closed and drained. */
static int queue_pop(struct transfer *t)
{
    int got = 0;
    pthread_mutex_lock(&queue.lock);
    while (queue.count == 0 && !queue.closed)
        pthread_cond_wait(&queue.not_empty, &queue.lock);
    if (queue.count > 0) {
        *t = queue.slot[queue.head];
        queue.head = (queue.head + 1) % QUEUE_CAP;
        queue.count--;
        pthread_cond_signal(&queue.not_full);
        got = 1;
    }
    pthread_mutex_unlock(&queue.lock);
    return got;
}

/* Locks both accounts in index order so two opposite transfers cannot
 * deadlock. Returns 1 if the money moved. */
static int apply(const struct transfer *t)
{
    struct account *a = &accounts[t->from < t->to ? t->from : t->to];
    struct account *b = &accounts[t->from < t->to ? t->to : t->from];
    int ok = 0;

    pthread_mutex_lock(&a->lock);
    pthread_mutex_lock(&b->lock);
    if (accounts[t->from].balance >= t->amount) {
        accounts[t->from].balance -= t->amount;
        accounts[t->to].balance += t->amount;
        ok = 1;
    }
    pthread_mutex_unlock(&b->lock);
    pthread_mutex_unlock(&a->lock);
    return ok;
}

static void *teller(void *arg)
{
    long done = 0, moved = 0;
    struct transfer t;

    (void)arg;
    while (queue_pop(&t)) {
        if (apply(&t)) {
            done++;
            moved += t.amount;
        } else {
            /* Refusals are rare and recorded at once, for the auditors. */
            pthread_mutex_lock(&stats_lock);
            stats.rejected++;
            pthread_mutex_unlock(&stats_lock);
        }
    }
    /* Publish this teller's tally once, at the end of its shift.
     * BUG: stats_lock is not taken here (compare bank_ok.c). */
    stats.transfers += done;
    stats.volume += moved;
    return NULL;
}

int main(void)
{
    pthread_t tellers[N_TELLERS];
    unsigned seed = 12345;
    long total = 0;

    accounts = calloc(N_ACCOUNTS, sizeof(*accounts));
    if (!accounts)
        return 1;
    for (int i = 0; i < N_ACCOUNTS; i++) {
        pthread_mutex_init(&accounts[i].lock, NULL);
        accounts[i].balance = INITIAL_BALANCE;
    }
    for (int i = 0; i < N_TELLERS; i++)
        pthread_create(&tellers[i], NULL, teller, NULL);

    for (int i = 0; i < N_TRANSFERS; i++) {
        struct transfer t;
        seed = seed * 1103515245u + 12345u; /* deterministic workload */
        t.from = (int)((seed >> 16) % N_ACCOUNTS);
        t.to = (int)((seed >> 8) % N_ACCOUNTS);
        t.amount = (long)((seed >> 4) % 300) + 1;
        if (t.to == t.from)
            t.to = (t.to + 1) % N_ACCOUNTS;
        queue_push(t);
    }
    queue_close();
    for (int i = 0; i < N_TELLERS; i++)
        pthread_join(tellers[i], NULL);

    for (int i = 0; i < N_ACCOUNTS; i++) {
        total += accounts[i].balance;
        pthread_mutex_destroy(&accounts[i].lock);
    }
    printf("transfers: %ld applied, %ld rejected, %ld cents moved\n", stats.transfers,
           stats.rejected, stats.volume);
    printf("audit: total %ld cents (%s)\n", total,
           total == (long)N_ACCOUNTS * INITIAL_BALANCE ? "balanced" : "MISMATCH");
    free(accounts);
    return total == (long)N_ACCOUNTS * INITIAL_BALANCE ? 0 : 1;
}
