import os, sys as system
from . import views
from ..db.models import (
    Model,
    Field as F,
)

MAX_RETRIES = 3
logger = get_logger()


class Session(Base, mixins.Logged):
    timeout = 5

    def refresh(self, now: Clock):
        return self.store.renew(now)

    @property
    async def close(self):
        def inner():
            pass
        return inner()


def make_session():
    return Session()
