class Ledger:
    def __init__(self):
        self.entries = []

    def deposit(self, amount):
        self.entries.append(amount)

    def withdraw(self, amount):
        self.entries.append(amount)

    def balance(self):
        return sum(self.entries)
