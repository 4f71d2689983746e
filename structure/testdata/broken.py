class Good:
    def ok(self):
        return 1

def broken(:
    pass

def after():
    return helper()
