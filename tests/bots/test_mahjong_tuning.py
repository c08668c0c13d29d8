"""The tuning command plays hudist variants on the same deals and compares them."""

from __future__ import annotations

import pytest

from paiju.bots.mahjong.tuning import main


def test_tuning_compares_variants_on_the_same_deals(capsys: pytest.CaptureFixture[str]) -> None:
    main(["--hands", "2", "--seed", "3", "--against", "greedy", "{}", "{}", '{"read_passed": false}'])
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3 and all("points/hand" in x for x in lines)
    assert "paired difference" not in lines[0]
    assert "paired difference +0.000 [+0.000, +0.000]" in lines[1]  # the same robot on the same deals


def test_tuning_refuses_a_setting_hudist_does_not_have() -> None:
    with pytest.raises(TypeError, match="nonsense"):
        main(["--hands", "1", '{"nonsense": 1}'])
