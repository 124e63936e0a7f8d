"""How each edition's tokens are tagged: its family, the part of a tag's kind before ":"
("animal:lapin", "colour:bleu"). The descriptor declares it (enrolment, the logs' blanks)
and the simulated table makes up its tags with it."""

FAMILY = {"ptipasspass": "animal", "phipasspass": "colour"}
