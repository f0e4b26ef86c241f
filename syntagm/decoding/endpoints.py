"""placeholder"""
class DecodingPlan: pass
def plan_for(*a): pass
def request_fields(*a): pass
