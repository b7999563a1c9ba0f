from ledger import Ledger


def test_empty_balance():
    assert Ledger().balance() == 0


def test_deposits_add_up():
    book = Ledger()
    book.deposit(10)
    book.deposit(5)
    assert book.balance() == 15


def test_withdraw_reduces_balance():
    book = Ledger()
    book.deposit(10)
    book.withdraw(3)
    assert book.balance() == 7


def test_history_is_most_recent():
    book = Ledger()
    for amount in (1, 2, 3, 4):
        book.deposit(amount)
    assert book.history(2) == [3, 4]


def test_history_zero():
    book = Ledger()
    book.deposit(1)
    assert book.history(0) == []


def test_history_single():
    book = Ledger()
    for amount in (5, 6, 7):
        book.deposit(amount)
    assert book.history(1) == [7]
