//! AM launch and heartbeat timing (`[scheduler] am_launch_delay_ms`, `am_heartbeat_ms`), as
//! Hadoop's SLS models an ApplicationMaster (`AMSimulator`, `MRAMSimulator`); off by default
//! (both 0), when a managed app asks for its tasks the moment its AM container is allocated
//! and a task runs from its allocation.
//!
//! With either on, for an app with an AM:
//! * the AM registers `am_launch_delay_ms` after its container is allocated;
//! * the AM beats at its submission time + k × `am_heartbeat_ms` (SLS schedules an AM's
//!   steps from its start time); it asks for its first stage at its first beat at or after
//!   registration, and for each later stage (reduces after maps, as `MRAMSimulator` asks
//!   them once every map has finished) at its first beat at or after the completion of the
//!   previous stage's last task; after the last stage it unregisters at its next beat and its
//!   container is released;
//! * a task container allocated to it starts running when the AM hears of it, at its first
//!   beat at or after the allocation (`MRAMSimulator` launches a container on its NodeManager
//!   when it reads the allocate response), so the container holds its resources from the
//!   allocation and runs its duration from that beat.
//!
//! An AM beat is an event ranked after the node heartbeats of its millisecond (an allocation
//! made then is heard at once). `am_heartbeat_ms = 0` with a launch delay asks at registration
//! itself. Unmanaged apps (no AM) ask at submission as before. Not modelled: a task killed by
//! preemption is asked again at once rather than at the AM's next beat.

use crate::event::Event;
use crate::scheduler::Sched;
use crate::time::SimTime;

impl Sched<'_, '_> {
    /// AM timing is on for app `a` (managed, and a delay or a heartbeat configured).
    fn am_timed(&self, a: u32) -> bool {
        let conf = &self.w.sc.scheduler;
        self.w.specs[a as usize].am.is_some()
            && (conf.am_heartbeat_ms > 0 || conf.am_launch_delay_ms > 0)
    }

    /// App `a`'s AM beat at or after `t`: its submission + k × `am_heartbeat_ms` (`t` itself
    /// when heartbeats are off).
    fn am_beat_at_or_after(&self, a: u32, t: SimTime) -> SimTime {
        let hb = self.w.sc.scheduler.am_heartbeat_ms;
        let start = self.w.specs[a as usize].arrival.0;
        if hb == 0 || t.0 <= start {
            return if hb == 0 { t } else { SimTime(start) };
        }
        SimTime(start + (t.0 - start).div_ceil(hb) * hb)
    }

    /// App `a`'s AM container was allocated now: its first stage is asked for at once, or
    /// at its first beat after registering.
    pub(crate) fn am_allocated(&mut self, a: u32) {
        // A new attempt after a lost AM asks again what the failed one had not finished.
        if self.resume_attempt(a) {
            return;
        }
        if !self.am_timed(a) {
            self.start_stage(a, 0);
            return;
        }
        let registered = self.cx.now.plus(self.w.sc.scheduler.am_launch_delay_ms);
        let t = self.am_beat_at_or_after(a, registered);
        self.push_am_beat(a, 0, t);
    }

    /// Every task of app `a`'s current stage finished now: stage `stage` (or the app's end)
    /// comes at once, or when the AM hears of it.
    pub(crate) fn stage_done(&mut self, a: u32, stage: usize) {
        if !self.am_timed(a) {
            self.start_stage(a, stage);
            return;
        }
        let t = self.am_beat_at_or_after(a, self.cx.now);
        self.push_am_beat(a, stage, t);
    }

    /// When a task container of app `a` allocated now starts running.
    pub(crate) fn task_launch(&self, a: u32) -> SimTime {
        if self.am_timed(a) {
            self.am_beat_at_or_after(a, self.cx.now)
        } else {
            self.cx.now
        }
    }

    fn push_am_beat(&mut self, a: u32, stage: usize, t: SimTime) {
        // A pending beat changes state whatever the scheduler does: the quiescence watch
        // counts it with the pending completions.
        self.cx.in_flight += 1;
        self.cx.events.push(
            t,
            Event::AmHeartbeat {
                app: a,
                stage: stage as u32,
            },
        );
    }

    /// The AM beat that asks for `stage` (or ends the app).
    pub(crate) fn on_am_heartbeat(&mut self, a: u32, stage: u32) {
        self.cx.in_flight -= 1;
        self.cx.progress += 1;
        // The AM that heard of it was lost: its successor asks once it runs.
        if self.w.apps[a as usize].stash.is_some() {
            self.w.apps[a as usize].deferred_stage = Some(stage as usize);
            return;
        }
        self.start_stage(a, stage as usize);
    }
}
