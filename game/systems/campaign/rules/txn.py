"""The campaign's transaction on the core kernel (`game.core.kernel`): the state being changed,
the events in order and the core roller. Handlers take a `CampaignTxn`, replace `txn.state`
with new immutable states and emit events; `finish` writes the dice drawn back into the state.
"""

from __future__ import annotations

from game.core.kernel import Accepted, Txn
from game.core.roller import Roller
from game.systems.campaign.rules.events import Ev
from game.systems.campaign.rules.state import CampaignState


class CampaignTxn(Txn[CampaignState, Ev]):
    @classmethod
    def begin(cls, state: CampaignState) -> CampaignTxn:
        return cls(state, Roller(state.rng, state.forced))

    def finish(self) -> Accepted[CampaignState, Ev]:
        """The outcome. When dice were drawn, the state keeps the generator after them and the
        forced values left (a command that rolled nothing, e.g. `gm_force_rolls`, keeps its own)."""
        if self.dice:
            self.state = self.state.model_copy(update={"rng": self.roller.rng_state,
                                                       "forced": self.roller.forced_left})
        return self.accepted()
