"""A selection policy in Python (docs/plugins.md#python-policies), compared with two built-in ones."""
import spotsim
from spotsim import SelectionDecision, Purchase

class SpotThenOnDemand:
    """Spot while it lasts; on-demand for good once the deadline leaves no slack for another start-up."""
    name = "spot-then-od"

    def reset(self):
        self.committed = False

    def decide(self, obs):
        d = obs.job["startup"]
        spare = obs.time_to_deadline - obs.remaining_work - 2 * d
        if self.committed or spare <= 0:
            self.committed = True
            return SelectionDecision.on_demand(obs.zone if obs.purchase == Purchase.ON_DEMAND else 0)
        if obs.purchase == Purchase.SPOT:
            return SelectionDecision.spot(obs.zone, review_at=obs.now + spare)
        for zone, available in enumerate(obs.spot_available):
            if available:
                return SelectionDecision.spot(zone, review_at=obs.now + spare)
        return SelectionDecision.wait(review_at=obs.now + spare)

if __name__ == "__main__":  # imported by a spec (spot_then_on_demand.json), it only defines the class
    for policy in (SpotThenOnDemand(), "greedy", "on-demand"):
        r = spotsim.simulate("us-west1", policy, "young-daly", work="24h", deadline="36h", replications=500, seed=7)
        s = r.summary.loc[["cost_total", "completion_hours", "deadline_met"], "mean"]
        print(f"{r.manifest['policy']:<22} cost {s['cost_total']:7.2f} USD  completion {s['completion_hours']:5.2f} h  "
              f"deadline met {s['deadline_met']:.3f}")
