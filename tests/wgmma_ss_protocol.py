#!/usr/bin/env python3
# The barrier protocol of wgmma_ss (kernels/14_wgmma_ss.cu) as a randomised model: the TMA
# producer thread, the two transposer warps, the two consumer warpgroups, and the asynchronous
# TMA and wgmma completions (in order per consumer). Asserts that no TMA or transposer write
# lands on a buffer still being read, that consumers read the right use of every stage, and
# that nothing deadlocks. Not part of `make test` (no Python dependency there): run it by hand,
#   python3 tests/wgmma_ss_protocol.py
import random, sys
STAGES, SRC, CONS = 4, 2, 2
class Bar:
    def __init__(s, count): s.count=count; s.pend=count; s.tx=0; s.phase=0
    def arrive(s, n=1):
        s.pend-=n; assert s.pend>=0; s.check()
    def expect(s, b): s.tx+=b
    def complete_tx(s,b): s.tx-=b; assert s.tx>=0; s.check()
    def check(s):
        if s.pend==0 and s.tx==0: s.phase+=1; s.pend=s.count
    def done(s, parity): return (s.phase & 1) != parity
def run(seed, tiles_per_block, ktiles):
    rnd=random.Random(seed)
    full=[Bar(1) for _ in range(STAGES)]; tfull=[Bar(2) for _ in range(STAGES)]  # 2 = transposer warps (each arrives as a unit)
    empty=[Bar(CONS) for _ in range(STAGES)]; sfull=[Bar(1) for _ in range(SRC)]; sempty=[Bar(2) for _ in range(SRC)]
    uses=tiles_per_block*ktiles
    as_=[None]*STAGES; bt=[None]*STAGES; bsrc=[None]*SRC
    readers_as=[set() for _ in range(STAGES)]; readers_bt=[set() for _ in range(STAGES)]; readers_src=[set() for _ in range(SRC)]
    async_ev=[]  # pending async events: functions
    def producer():
        for it in range(uses):
            s, j = it%STAGES, it%SRC
            if it>=STAGES:
                while not empty[s].done((it//STAGES-1)&1): yield
            full[s].expect(1); full[s].arrive()
            assert not readers_as[s], "TMA A over in-flight reads"
            def tma_a(s=s,it=it):
                assert not readers_as[s]; as_[s]=it; full[s].complete_tx(1)
            async_ev.append(tma_a)
            if it>=SRC:
                while not sempty[j].done((it//SRC-1)&1): yield
            sfull[j].expect(1); sfull[j].arrive()
            assert not readers_src[j], "TMA B over transposer reads"
            def tma_b(j=j,it=it):
                assert not readers_src[j]; bsrc[j]=it; sfull[j].complete_tx(1)
            async_ev.append(tma_b)
            yield
    def transposer(w):
        for it in range(uses):
            s, j = it%STAGES, it%SRC
            while not sfull[j].done((it//SRC)&1): yield
            assert bsrc[j]==it, ("src", bsrc[j], it)
            readers_src[j].add(w); yield
            assert bsrc[j]==it
            assert not readers_bt[s], "transposer writes B^T under in-flight wgmma"
            bt[s]=(it, w) if bt[s] is None or bt[s][0]!=it else (it,'both'); yield
            readers_src[j].discard(w); sempty[j].arrive(); tfull[s].arrive(); yield
    def consumer(c):
        it=0; groups=[]  # list of (s, done flag holder)
        def wait(n):
            while sum(1 for g in groups if not g[1][0])>n: yield
        for tile in range(tiles_per_block):
            for t in range(ktiles):
                s=it%STAGES; ph=(it//STAGES)&1
                while not full[s].done(ph): yield
                while not tfull[s].done(ph): yield
                assert as_[s]==it and bt[s]==(it,'both'), ("stale", as_[s], bt[s], it)
                readers_as[s].add((c,it)); readers_bt[s].add((c,it))
                flag=[False]
                def fin(s=s,c=c,it=it,flag=flag):
                    flag[0]=True; readers_as[s].discard((c,it)); readers_bt[s].discard((c,it))
                groups.append((s,flag))
                # completion may only happen after previous groups (in order)
                async_ev.append(('wg',c,fin))
                yield from wait(1)
                if t>0: empty[(it+STAGES-1)%STAGES].arrive()
                it+=1; yield
            yield from wait(0)
            empty[(it+STAGES-1)%STAGES].arrive(); yield
    actors=[producer(), transposer(0), transposer(1), consumer(0), consumer(1)]
    alive=list(actors); steps=0
    while alive or async_ev:
        steps+=1
        if steps>2_000_000: raise RuntimeError("deadlock?")
        if async_ev and rnd.random()<0.3:
            # wgmma completions must be in order per consumer: pick the first of that consumer
            e=rnd.choice(async_ev)
            if isinstance(e,tuple):
                e=next(x for x in async_ev if isinstance(x,tuple) and x[1]==e[1])
                async_ev.remove(e); e[2]()
            else:
                async_ev.remove(e); e()
            continue
        if not alive:
            continue
        a=rnd.choice(alive)
        try: next(a)
        except StopIteration: alive.remove(a)
    return steps
for seed in range(300):
    for tp,kt in ((1,1),(1,5),(3,2),(2,9),(4,3)):
        run(seed,tp,kt)
print("ok: 1500 random schedules, no deadlock, no stale or overwritten operand")
