//! EventSemaphore (`visitInstEventSemaphore`, 0xA0): two waits and one update in the bundle's own
//! fields; wait modes through the CC wait LUT, the update through the CC update LUT (conflict #9).

use crate::bundle::{Sink, setup_header};
use crate::error::EncodeError;
use crate::formats::{event_semaphore as es, events};
use crate::model::{EventSemaphore, Instruction, SyncInfo};

pub(super) fn encode<S: Sink>(
    inst: &Instruction,
    op: &EventSemaphore,
    sink: &mut S,
) -> Result<(), EncodeError> {
    if inst.sync != SyncInfo::default() {
        return Err(EncodeError::EventSemaphoreSync);
    }
    let b = sink.begin()?;
    setup_header(b, 0xA0);
    if let Some(w) = op.wait0 {
        events::WAIT_MODE.put_u8(b, w.mode.wire());
        events::WAIT_IDX.put_u8(b, w.sem);
        events::SEMAPHORE_VALUE.put_u32(b, w.value);
    }
    if let Some(w) = op.wait1 {
        es::EXT_WAIT_MODE.put_u8(b, w.mode.wire());
        es::EXT_WAIT_IDX.put_u8(b, w.sem);
        es::EXT_WAIT_VALUE.put_u32(b, w.value);
    }
    if let Some(u) = op.update {
        es::EXT_UPDATE_MODE.put_u8(b, u.mode.wire());
        es::EXT_UPDATE_IDX.put_u8(b, u.sem);
        if u.mode.writes_value() {
            es::EXT_UPDATE_VALUE.put_u32(b, u.value);
        }
    }
    sink.end();
    Ok(())
}
