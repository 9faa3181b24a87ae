var $bm_rt;
$bm_rt = wiggle(2, 30);